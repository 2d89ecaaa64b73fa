"""The benchmark peers' peak-memory reading, shared so every Python side measures the same way."""

import resource


def peak_rss_kb() -> int:
    """This process's peak RSS in KiB: VmHWM from /proc/self/status.

    Not getrusage's ru_maxrss: Linux carries ru_maxrss across execve, so a process started by a large parent
    (the benchmark driver holding millions of ids) would report the parent's peak instead of its own.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
