extension JSONLogSink {
    /// A sink writing to an open file descriptor, which the caller keeps open: the tests' way to put the
    /// production writer (one `write(2)` per line under its lock) on a pipe. Make one sink per descriptor and
    /// share it: two sinks on the same descriptor don't share a lock.
    package static func fileDescriptor(_ descriptor: Int32) -> JSONLogSink {
        JSONLogSink(descriptor: FileDescriptorWriter(descriptor: descriptor))
    }
}

extension JSONLogSink {
    /// A sink batching lines to an open file descriptor as standard output does (``BatchingDescriptorWriter``),
    /// lines waiting at most `window`. The writer's thread lives as long as the process: for tests.
    package static func batchedFileDescriptor(_ descriptor: Int32, window: Duration) -> JSONLogSink {
        JSONLogSink(batching: BatchingDescriptorWriter(descriptor: descriptor, window: window))
    }
}
