import com.sun.tools.attach.VirtualMachine;

/**
 * Loads async-profiler into a running JVM: {@code java bench/ProfilerAttach.java <pid> <lib.so>
 * <options>}, e.g. options {@code start,event=itimer,interval=2ms} and later {@code
 * stop,file=/tmp/profile.txt,collapsed}. Used by bench/profile-trigger.sh.
 */
public class ProfilerAttach {
  public static void main(String[] args) throws Exception {
    VirtualMachine vm = VirtualMachine.attach(args[0]);
    try {
      vm.loadAgentPath(args[1], args[2]);
    } finally {
      vm.detach();
    }
  }
}
