import Glibc
import Synchronization

/// A child process started with `posix_spawn`, for the fixtures that run servers and tools from test processes
/// holding over a thousand descriptors.
///
/// Why not Foundation's `Process`: on Linux its `run()` lists the parent's open descriptors to close them in the
/// child, and it crashed (SIGSEGV) doing so in a test process with over 1,300 descriptors open among its parallel
/// suites. Here the child closes every descriptor above 2 itself, in one file action
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34), before it execs; its signal mask is emptied and its
/// handlers reset (Swift concurrency's threads block most signals, and a child inherits the spawning thread's
/// mask: a server started that way would never see the signal that stops it).
package final class SpawnedChild: Sendable {
    /// How the child ended.
    package enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The exit code, or the number of the signal (a shell's `$?` less 128), as Foundation's
        /// `terminationStatus` gave it.
        package var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): signal
            }
        }
    }

    package let pid: Int32
    private let ended = Mutex<Termination?>(nil)

    /// Starts `arguments[0]` (an absolute path) with the rest as arguments, `standardInput`, `standardOutput` and
    /// `standardError` as its descriptors 0, 1 and 2, and `environment` (nil: this process's).
    /// `ownProcessGroup` starts the child in a process group of its own: a signal another process sends to the
    /// test process's group (a stray `kill(0, …)`, a tool's cleanup) then does not reach it. `workingDirectory`
    /// (nil: this process's) is where the child starts.
    package init(
        _ arguments: [String], environment: [String: String]? = nil,
        standardInput: Int32, standardOutput: Int32, standardError: Int32, ownProcessGroup: Bool = false,
        workingDirectory: String? = nil
    ) throws {
        guard let executable = arguments.first else { throw ChildProcessFailure("no command to run") }
        guard let closeFrom = Self.closeFrom else {
            throw ChildProcessFailure("this C library lacks posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or newer)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the target, so descriptors opened with O_CLOEXEC can be passed.
        for (source, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        _ = closeFrom(&actions, 3)
        if let workingDirectory {
            guard let changeDirectory = Self.changeDirectory else {
                throw ChildProcessFailure("this C library lacks posix_spawn_file_actions_addchdir_np (glibc 2.29 or newer)")
            }
            guard changeDirectory(&actions, workingDirectory) == 0 else {
                throw ChildProcessFailure("cannot start \(executable) in \(workingDirectory)")
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let variables = (environment ?? Self.currentEnvironment).map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw ChildProcessFailure("posix_spawn \(executable) failed: \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    /// How the child ended, or nil while it runs (reaps it once it has ended).
    package var termination: Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import as macros.
            let signal = status & 0x7f
            ended = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            return ended
        }
    }

    package var isRunning: Bool { termination == nil }

    /// Sends `signal` to the child while it runs.
    package func signal(_ signal: Int32) {
        ended.withLock { ended in
            if ended == nil { _ = kill(pid, signal) }
        }
    }

    /// The exit code, or the number of the signal that ended it; nil while it runs.
    package var status: Int32? { termination?.status }

    /// Sends SIGKILL while it runs and waits for its end, blocking this thread (a `defer`, a synchronous caller);
    /// a killed child is gone within milliseconds.
    package func killAndWait() -> Termination {
        signal(SIGKILL)
        while true {
            if let termination { return termination }
            usleep(2_000)
        }
    }

    /// SIGTERM, then SIGKILL after `grace` if it still runs; awaits its end without holding a thread.
    @discardableResult
    package func stop(grace: Duration) async -> Termination {
        signal(SIGTERM)
        if let ended = await waitForExit(timeout: grace) { return ended }
        signal(SIGKILL)
        while true {
            if let termination { return termination }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// ``waitForExit(timeout:)`` blocking this thread: only for synchronous callers (a test trait's condition, a
    /// static initialiser) with a quick child.
    @discardableResult
    package func waitForExitBlocking(timeout: Duration) -> Termination? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let termination { return termination }
            usleep(10_000)
        }
        return termination
    }

    /// Waits (sleeping, never blocking a cooperative thread) until the child has ended or `timeout` passed.
    @discardableResult
    package func waitForExit(timeout: Duration) async -> Termination? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let termination { return termination }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return termination
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32

    /// glibc declares these two only under _GNU_SOURCE, which Swift's Glibc module does not see; they are looked up.
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }
    private static let changeDirectory: ChangeDirectory? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
        .map { unsafeBitCast($0, to: ChangeDirectory.self) }

    private static var currentEnvironment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
