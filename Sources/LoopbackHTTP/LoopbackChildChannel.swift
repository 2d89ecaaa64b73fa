import HummingbirdCore
import Logging
internal import NIOCore
internal import NIOHTTP1

/// Hummingbird's HTTP/1.1 child channel with a ``LoopbackConnectionObserver`` put right after NIO's request
/// decoder, where it still sees NIOHTTP1's parts.
struct LoopbackChildChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let state: LoopbackServerState

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let state = self.state
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(LoopbackConnectionObserver(state: state), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with the loopback server's connection observer.
    static func loopback(state: LoopbackServerState) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            LoopbackChildChannel(http1: HTTP1Channel(responder: responder), state: state)
        }
    }
}
