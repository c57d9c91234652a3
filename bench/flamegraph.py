#!/usr/bin/env python3
"""A flame graph (SVG) from collapsed stacks ("frame;frame;frame count" per line), as
async-profiler's `collapsed` output writes them (bench/profile-trigger.sh).

    python3 bench/flamegraph.py STACKS.txt OUT.svg [TITLE] [--exclude REGEX]

Each box is a frame, as wide as the share of the samples whose stack holds it there; callers
below, callees above. Frames of the JVM's own threads are coloured apart (JIT compiler, GC), so
the service's work per run stands out. Thread plumbing is left out, and a run of frames of one
package (Spring's filter chain, Tomcat's valves, gRPC's call layers) is folded into one box that
names how many frames it holds. --exclude leaves out the stacks that match (for example
the JIT compiler's, while the service warms up).
"""
import html
import re
import sys


# thread plumbing below the work: left out, so that a thread's work starts at the bottom row
PLUMBING = re.compile(
    r"^(java/lang/Thread\.run|java/lang/Thread\.runWith|java/util/concurrent/ThreadPoolExecutor"
    r"|start_thread|thread_native_entry|JavaThread::|Thread::call_run|JavaCalls::|call_stub"
    r"|org/apache/tomcat/util/threads/|io/grpc/netty/shaded/io/netty/util/(concurrent|internal)/"
    r"|clone3?$)"
)


GROUPS = [
    ("Tomcat and Spring MVC", re.compile(r"^(org/apache/(catalina|coyote|tomcat)|jakarta/servlet|org/springframework/web)")),
    ("Spring proxies and reflection", re.compile(
        r"^(org/springframework/(aop|transaction|dao|cglib)|jdk/internal/reflect|java/lang/reflect|.*SpringCGLIB)")),
    ("Spring JDBC", re.compile(r"^org/springframework/jdbc")),
    ("gRPC", re.compile(r"^io/grpc")),
]


def package(frame):
    """The group of a Java frame (see GROUPS), else its class's first three parts, else None."""
    if "/" not in frame or "::" in frame:
        return None
    for name, pattern in GROUPS:
        if pattern.search(frame):
            return name
    return "/".join(frame.split("/")[:3])


def fold(frames):
    """Runs of frames of one package (Spring's filter chain, Tomcat's valves) as one frame."""
    out = []
    for frame in frames:
        frame = re.sub(r"\$\$Lambda\$?[0-9a-fx./]*", "$$Lambda", frame)
        frame = re.sub(r"GeneratedMethodAccessor[0-9]+", "GeneratedMethodAccessor", frame)
        pkg = package(frame)
        if out and pkg and out[-1][0] == pkg:
            out[-1][1].append(frame)
        else:
            out.append((pkg, [frame]))
    folded = []
    for pkg, run in out:
        if len(run) <= 2:
            folded.extend(run)
        else:
            last = run[-1].split("/")[-1]
            folded.append(f"{pkg}/… ({len(run)} frames) … {last}")
    return folded


def load(path, exclude):
    root = {"name": "all", "n": 0, "kids": {}}
    for line in open(path, encoding="utf-8", errors="replace"):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        if exclude and re.search(exclude, stack):
            continue
        n = int(count)
        node = root
        node["n"] += n
        frames = [f for f in stack.split(";") if not PLUMBING.search(f)]
        for frame in fold(frames):
            node = node["kids"].setdefault(frame, {"name": frame, "n": 0, "kids": {}})
            node["n"] += n
    return root


def colour(name):
    if "CompileBroker" in name or "C2Compiler" in name or "Compilation::" in name:
        return "#b0b0b0"
    if re.search(r"G1|GCTaskThread|ConcurrentGC", name):
        return "#9fc5e8"
    if name.startswith("com/crmflow"):
        return "#f6a04d"
    if re.search(r"io/temporal|io/grpc|io/netty|com/google/protobuf", name):
        return "#e8c547"
    if re.search(r"org/apache/catalina|org/apache/coyote|org/apache/tomcat|org/springframework", name):
        return "#a6d96a"
    if re.search(r"org/postgresql|com/zaxxer", name):
        return "#80cdc1"
    if "/" not in name and "." not in name:  # native and VM frames
        return "#e06666"
    h = sum(map(ord, name)) % 40
    return f"hsl({10 + h}, 70%, 65%)"


def main():
    args = [a for a in sys.argv[1:]]
    exclude = None
    if "--exclude" in args:
        i = args.index("--exclude")
        exclude = args[i + 1]
        del args[i : i + 2]
    src, out = args[0], args[1]
    title = args[2] if len(args) > 2 else "CPU flame graph"
    root = load(src, exclude)
    total = root["n"] or 1
    width, row, pad = 1800, 16, 30
    boxes = []

    def walk(node, x, depth):
        boxes.append((node, x, depth))
        for kid in sorted(node["kids"].values(), key=lambda k: -k["n"]):
            walk(kid, x, depth + 1)
            x += kid["n"]

    walk(root, 0, 0)
    depth_max = max(d for node, _, d in boxes if node["n"] * (width - 20) / total >= 2.0)
    height = (depth_max + 1) * row + 2 * pad
    scale = (width - 20) / total
    out_lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="monospace" font-size="11">',
        f'<rect width="100%" height="100%" fill="#fdfdf6"/>',
        f'<text x="10" y="18" font-size="14">{html.escape(title)} ({total} samples)</text>',
    ]
    for node, x, depth in boxes:
        w = node["n"] * scale
        if w < 2.0:
            continue
        px = 10 + x * scale
        py = height - pad - (depth + 1) * row
        name = node["name"]
        share = 100 * node["n"] / total
        label = f"{name} ({share:.1f}%)"
        out_lines.append(
            f'<g><title>{html.escape(label)}</title>'
            f'<rect x="{px:.1f}" y="{py}" width="{w:.1f}" height="{row - 1}" fill="{colour(name)}" rx="1"/>'
        )
        chars = int(w / 6.6)
        if chars >= 4:
            text = label if len(label) <= chars else label[: chars - 2] + ".."
            out_lines.append(f'<text x="{px + 2:.1f}" y="{py + row - 4}">{html.escape(text)}</text>')
        out_lines.append("</g>")
    out_lines.append("</svg>")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(out_lines) + "\n")


if __name__ == "__main__":
    main()
