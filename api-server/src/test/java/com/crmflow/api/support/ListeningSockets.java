package com.crmflow.api.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The TCP sockets a process listens on, as Linux shows them: the socket inodes among the process's
 * open files ({@code /proc/<pid>/fd}) matched with the listening entries of {@code
 * /proc/<pid>/net/tcp} and {@code tcp6}. Tells whether a child process binds to loopback only.
 */
public final class ListeningSockets {

  /** {@code st} of a listening socket in /proc/net/tcp. */
  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  /** The local addresses the process listens on (an IPv4-mapped IPv6 address as IPv4). */
  public static List<InetSocketAddress> of(long pid) {
    Set<String> inodes = socketInodes(pid);
    List<InetSocketAddress> listening = new ArrayList<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc", Long.toString(pid), "net", table);
      List<String> lines;
      try {
        lines = Files.readAllLines(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (String line : lines.subList(1, lines.size())) {
        String[] fields = line.trim().split("\\s+");
        if (fields[3].equals(LISTEN) && inodes.contains(fields[9])) {
          listening.add(address(fields[1]));
        }
      }
    }
    return listening;
  }

  private static Set<String> socketInodes(long pid) {
    Set<String> inodes = new HashSet<>();
    try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // a file the process closed while it was listed
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return inodes;
  }

  /** "0100007F:1F90" or 32 hex digits and a port: each 32-bit word in the host's byte order. */
  private static InetSocketAddress address(String field) {
    String[] parts = field.split(":");
    byte[] words = HexFormat.of().parseHex(parts[0]);
    byte[] bytes = new byte[words.length];
    for (int word = 0; word < words.length; word += 4) {
      for (int i = 0; i < 4; i++) {
        bytes[word + i] = words[word + 3 - i]; // little-endian x86 and arm64
      }
    }
    try {
      return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(parts[1], 16));
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}
