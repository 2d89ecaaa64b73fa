internal import CCurl
internal import CCurlShims
#if canImport(Glibc)
import Glibc
#endif

/// What the client's loop thread waits on: an epoll set holding the sockets libcurl asks to watch
/// (`CURLMOPT_SOCKETFUNCTION`), an eventfd other threads ring when they queue a command, and the one timer
/// libcurl keeps (`CURLMOPT_TIMERFUNCTION`).
///
/// With it the loop calls `curl_multi_socket_action` only for sockets that are ready, instead of
/// `curl_multi_perform` walking every transfer on every wakeup: the difference grows with the number of
/// transfers in flight. Linux only (epoll, eventfd).
///
/// A socket libcurl stops watching stays in the epoll set, parked: on keep-alive connections libcurl stops
/// watching a socket after each response and watches it again for the next request, and an `EPOLL_CTL_DEL`
/// and `EPOLL_CTL_ADD` per request cost more than the rest of the loop's system calls. A parked socket is
/// watched again with one `EPOLL_CTL_MOD` (an `ADD` if the kernel dropped it because libcurl closed it),
/// and taken out of the set only if it reports an event (the server closed an idle connection).
///
/// Everything but ``ring()`` runs on the loop thread (libcurl calls the callbacks from inside its calls
/// there). The callbacks get this object, not the loop, so `curl_multi_cleanup` in the loop's `deinit` still
/// finds it alive.
final class CurlEventPoll: @unchecked Sendable {
    /// A ready socket and what it is ready for, as `curl_multi_socket_action` takes it.
    struct Ready {
        var socket: curl_socket_t
        var mask: Int32
    }

    private let epoll: Int32
    private let doorbell: Int32
    private var events: [epoll_event]
    /// Per descriptor number: whether libcurl watches it (`watched`), it sits parked in the set (`parked`), or
    /// neither (`absent`). Grown on demand.
    private var sockets: [SocketState] = []
    private enum SocketState: UInt8 { case absent, watched, parked }
    /// When libcurl wants `curl_multi_socket_action(CURL_SOCKET_TIMEOUT)`, in `CLOCK_MONOTONIC` nanoseconds;
    /// `nil` when it has no timer.
    private var deadline: UInt64?

    init(capacity: Int = 256) throws(HTTPError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw Self.systemError("epoll_create1") }
        let doorbell = qw_eventfd_nonblocking()
        guard doorbell >= 0 else {
            let error = Self.systemError("eventfd")
            _ = Glibc.close(epoll)
            throw error
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = doorbell
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, doorbell, &event) == 0 else {
            let error = Self.systemError("epoll_ctl")
            _ = Glibc.close(doorbell)
            _ = Glibc.close(epoll)
            throw error
        }
        self.epoll = epoll
        self.doorbell = doorbell
        self.events = Array(repeating: epoll_event(), count: capacity)
    }

    /// Closes the descriptors; call after `curl_multi_cleanup`, which may still report sockets.
    func closeDescriptors() {
        _ = Glibc.close(doorbell)
        _ = Glibc.close(epoll)
    }

    /// Installs the socket and timer callbacks on `multi`.
    func install(on multi: UnsafeMutableRawPointer) throws(HTTPError) {
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        guard qw_curl_multi_setopt_socket_cb(multi, Self.socketCallback) == CURLM_OK,
            qw_curl_multi_setopt_ptr(multi, CURLMOPT_SOCKETDATA, opaque) == CURLM_OK,
            qw_curl_multi_setopt_timer_cb(multi, Self.timerCallback) == CURLM_OK,
            qw_curl_multi_setopt_ptr(multi, CURLMOPT_TIMERDATA, opaque) == CURLM_OK
        else { throw HTTPError(code: .other, message: "libcurl refused the socket or timer callback") }
    }

    // MARK: Any thread

    /// Wakes the loop from `wait` (any thread). An eventfd counts: several rings before a wait are one wakeup.
    func ring() {
        var one: UInt64 = 1
        _ = write(doorbell, &one, 8)
    }

    // MARK: Loop thread

    /// Whether libcurl's timer has expired (then it is cleared: the caller runs the timeout action).
    func timerExpired() -> Bool {
        guard let deadline, Self.now() >= deadline else { return false }
        self.deadline = nil
        return true
    }

    /// Waits for ready sockets, a ring or libcurl's timer (at most `limitMilliseconds`), and calls `body` with
    /// each ready socket. A ring is consumed here.
    func wait(limitMilliseconds: Int32, _ body: (Ready) -> Void) {
        var timeout = limitMilliseconds
        if let deadline {
            let now = Self.now()
            // Rounded up: waking a little early would only spin.
            let remaining = deadline > now ? (deadline - now + 999_999) / 1_000_000 : 0
            timeout = Int32(min(UInt64(timeout), remaining))
        }
        let count = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), timeout)
        }
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            let event = events[index]
            let fd = event.data.fd
            if fd == doorbell {
                var value: UInt64 = 0
                _ = read(doorbell, &value, 8)
                continue
            }
            guard state(fd) == .watched else {
                // Parked and ready: the peer closed or wrote to an idle connection. libcurl finds out when
                // it next uses it; until then it leaves the set, so level-triggered epoll stops reporting it.
                _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
                setState(fd, .absent)
                continue
            }
            var mask: Int32 = 0
            if event.events & EPOLLIN.rawValue != 0 { mask |= CURL_CSELECT_IN }
            if event.events & EPOLLOUT.rawValue != 0 { mask |= CURL_CSELECT_OUT }
            if event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { mask |= CURL_CSELECT_ERR }
            body(Ready(socket: fd, mask: mask))
        }
    }

    private func watch(_ socket: curl_socket_t, _ what: Int32) {
        guard socket >= 0 else { return }
        let before = state(socket)
        guard what != CURL_POLL_REMOVE else {
            // Parked, not removed (see the type's comment); closing the socket drops it from the set.
            if before == .watched { setState(socket, .parked) }
            return
        }
        var event = epoll_event()
        event.events = (what & CURL_POLL_IN != 0 ? EPOLLIN.rawValue : 0) | (what & CURL_POLL_OUT != 0 ? EPOLLOUT.rawValue : 0)
        event.data.fd = socket
        // A parked descriptor may have been closed and its number reused: MOD fails then, and ADD follows.
        if before == .absent || epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 {
            if epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) != 0, errno == EEXIST {
                _ = epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event)
            }
        }
        setState(socket, .watched)
    }

    private func state(_ socket: Int32) -> SocketState {
        Int(socket) < sockets.count ? sockets[Int(socket)] : .absent
    }

    private func setState(_ socket: Int32, _ state: SocketState) {
        let index = Int(socket)
        if index >= sockets.count { sockets.append(contentsOf: repeatElement(.absent, count: index + 64 - sockets.count)) }
        sockets[index] = state
    }

    private func setTimer(_ milliseconds: Int) {
        deadline = milliseconds < 0 ? nil : Self.now() + UInt64(milliseconds) * 1_000_000
    }

    private static let socketCallback: @convention(c) (
        UnsafeMutableRawPointer?, curl_socket_t, Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
    ) -> Int32 = { _, socket, what, opaque, _ in
        guard let opaque else { return -1 }
        Unmanaged<CurlEventPoll>.fromOpaque(opaque).takeUnretainedValue().watch(socket, what)
        return 0
    }

    private static let timerCallback: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32 = {
        _, milliseconds, opaque in
        guard let opaque else { return -1 }
        Unmanaged<CurlEventPoll>.fromOpaque(opaque).takeUnretainedValue().setTimer(milliseconds)
        return 0
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func systemError(_ call: String) -> HTTPError {
        HTTPError(code: .other, message: "\(call) failed (errno \(errno)): the HTTP client cannot start its loop")
    }
}
