import FeatureQuerySupport
import Logging
import Hummingbird
import Synchronization

/// Answers one request: logs it, applies faults (latency first, then a failure that replaces or cuts
/// the response), asks the authorizer, and routes it to the directory, metadata or query handlers. A
/// request whose client went away before its response was made is counted as aborted, and its entry in the
/// request log stamped with the time.
final class RequestHandler: Sendable {
    let layers: [SampleLayer: PublishedLayer]
    /// The data behind the layers: relationships and attachments are derived from it.
    let dataset: SampleDataset
    let faults: FaultInjector
    let recorder: StatisticsRecorder
    let cache = SelectionCache()
    /// The OGC API Features face's collections (over the same stores).
    let ogc: OGCCatalog
    /// `http://host:port` once listening: the origin of OGC links for a request without a `Host` header.
    let origin = Mutex("http://127.0.0.1")
    let authorizer: SampleServerAuthorizer?
    /// Token endpoints and the gate of the secured folder; nil for a public server.
    let security: SecurityHandler?
    let logger: Logger

    init(
        dataset: SampleDataset, configuration: SampleServerConfiguration, faults: FaultInjector,
        recorder: StatisticsRecorder, logger: Logger
    ) {
        var layers: [SampleLayer: PublishedLayer] = [:]
        for layer in SampleLayer.allCases {
            var definition = dataset.definition(layer)
            if let capabilities = configuration.capabilityOverrides[layer] { definition = definition.with(capabilities: capabilities) }
            layers[layer] = PublishedLayer(
                definition: definition, source: dataset.source(layer), options: configuration.queryOptions(layer))
        }
        self.layers = layers
        self.dataset = dataset
        ogc = OGCCatalog(dataset: dataset)
        self.faults = faults
        self.recorder = recorder
        self.authorizer = configuration.authorizer
        self.security = configuration.security.map(SecurityHandler.init(security:))
        self.logger = logger
    }

    func handle(_ request: SampleRequest) async throws -> Response {
        let path = PercentDecoding.decode(request.path, plusAsSpace: false)
        let access = SecuredAccess(path: path, security: security?.security)
        let route = Route(path: access.routePath)
        let ogcRoute: Result<OGCRoute, OGCError>?
        do {
            ogcRoute = try OGCRoute(path: path).map { .success($0) }
        } catch {
            ogcRoute = .failure(error)
        }
        let list = request.parameters
        let parameters = RequestParameters(list)
        let token = parameters["token"] ?? Self.bearerToken(request.headers)
        var record = RecordedRequest(
            sequence: 0, method: request.method.rawValue, path: path,
            parameters: list.map {
                .init(name: $0.name, value: SecurityPaths.redactedParameters.contains($0.name.lowercased()) ? "<redacted>" : $0.value)
            },
            hadToken: token != nil, layer: route.layer, isQuery: route.isQuery, faults: [], receivedAt: ContinuousClock.now)
        if case .success(let ogc) = ogcRoute {
            record.collection = ogc.collectionID
            record.isOGCItems = ogc.isItems
            record.layer = ogc.collectionID.flatMap { self.ogc[$0]?.layer }
        }
        let sequence = recorder.received(record)
        // Token endpoints are counted apart: a client's token calls need not share its per-host limit.
        let isService = access.endpoint == nil
        let inProgress = isService ? ServiceRequestInProgress(recorder) : nil
        defer { inProgress?.end(answered: true) }
        do {
            let response = try await withTaskCancellationHandler {
                try await answer(
                    request, route: route, ogcRoute: ogcRoute, access: access, path: path, parameters: parameters, token: token,
                    sequence: sequence)
            } onCancel: {
                // The client left: no longer in progress from its side, though the handler has yet to wake up
                // and return. Its next request may already be here.
                inProgress?.end(answered: false)
            }
            // A client that left while the response was being made: the response goes nowhere.
            try Task.checkCancellation()
            return response
        } catch let error as CancellationError {
            inProgress?.end(answered: false)
            recorder.aborted(sequence: sequence)
            throw error
        }
    }

    /// Applies the faults and answers: everything ``handle(_:)`` does after logging the request.
    private func answer(
        _ request: SampleRequest, route: Route, ogcRoute: Result<OGCRoute, OGCError>?, access: SecuredAccess, path: String,
        parameters: RequestParameters, token: String?, sequence: Int
    ) async throws -> Response {
        let decision = faults.decide(path: path)
        recorder.injected(decision.injected, sequence: sequence)
        if decision.latencyMilliseconds > 0 {
            try await Task.sleep(for: .milliseconds(decision.latencyMilliseconds))
        }
        guard [.get, .post, .head].contains(request.method) else {
            return .text(HTMLPage.page(title: "405 Method Not Allowed", body: "Use GET or POST."), status: 405, contentType: HTMLPage.contentType)
        }
        let respond: () async throws -> Response = {
            if let endpoint = access.endpoint, let security = self.security {
                return security.answer(endpoint, request: request, parameters: parameters, origin: self.origin.withLock { $0 })
            }
            switch ogcRoute {
            case .success(let ogc):
                return try await self.respondOGC(ogc, request: request, token: token, path: path, shortPageCap: decision.shortPageCap)
            case .failure(let error):
                return self.failOGC(error)
            case nil:
                return try await self.respond(route, access: access, request: request, path: path, parameters: parameters, token: token,
                                              shortPageCap: decision.shortPageCap)
            }
        }
        if let failure = decision.failure {
            logger.debug("injecting fault", metadata: ["fault": "\(failure.name)", "path": "\(path)"])
            return try await FaultResponses.response(for: failure, real: respond)
        }
        return try await respond()
    }

    private func respond(
        _ route: Route, access: SecuredAccess, request: SampleRequest, path: String, parameters: RequestParameters, token: String?,
        shortPageCap: Int?
    ) async throws -> Response {
        let method = request.method.rawValue
        if route == .outside {
            return .text(HTMLPage.page(title: "404 Not Found", body: "The requested URL was not found on this server."),
                         status: 404, contentType: HTMLPage.contentType)
        }
        let format: ResponseFormat
        do {
            format = try ResponseFormat(parameters)
        } catch {
            recorder.error()
            return RESTResponseWriter.error(error, format: nil)
        }
        if let authorizer {
            let check = AuthorizationRequest(token: token, service: route.service, layer: route.layer, path: path, method: method)
            if case .deny(let code, let message) = await authorizer(check) {
                recorder.error()
                return RESTResponseWriter.error(ArcGISServiceError(code: code, message: message), format: format)
            }
        }
        let origin = self.origin.withLock { $0 }
        if let security, access.isSecured(route),
            let refusal = security.refusal(token: token, referer: request.headers[.referer], origin: origin)
        {
            recorder.error()
            return SecurityResponses.refusal(refusal)
        }
        switch route {
        case .info:
            recorder.metadata()
            let info: [UInt8]
            if let security {
                info = MetadataWriter.info(security.authInfo(origin: origin))
            } else {
                info = MetadataWriter.info(tokenBased: authorizer != nil, tokenURL: "/arcgis/tokens/generateToken")
            }
            return RESTResponseWriter.resource(info, format: format, title: "Info")
        case .directory:
            recorder.metadata()
            let folder = security?.security.securedFolder
            let directory = access.inFolder
                ? MetadataWriter.directory(prefix: (folder ?? "") + "/")
                : MetadataWriter.directory(folders: folder.map { [$0] } ?? [])
            return RESTResponseWriter.resource(directory, format: format, title: "Home")
        case .service(let service):
            recorder.metadata()
            return RESTResponseWriter.resource(MetadataWriter.service(service, layers: published(service)), format: format, title: service.path)
        case .serviceLayers(let service):
            recorder.metadata()
            return RESTResponseWriter.resource(MetadataWriter.layers(published(service)), format: format, title: "\(service.path) layers")
        case .layer(let layer):
            recorder.metadata()
            guard let published = layers[layer] else { return notFound(.layerNotFound(String(layer.layerID)), format) }
            return RESTResponseWriter.resource(MetadataWriter.layer(published), format: format, title: published.definition.name)
        case .query(let layer):
            guard let published = layers[layer] else { return notFound(.layerNotFound(String(layer.layerID)), format) }
            return try query(published, parameters: parameters, format: format, shortPageCap: shortPageCap)
        case .queryRelatedRecords(let layer):
            guard let published = layers[layer] else { return notFound(.layerNotFound(String(layer.layerID)), format) }
            return queryRelatedRecords(published, parameters: parameters, format: format)
        case .queryAttachments(let layer):
            guard let published = layers[layer] else { return notFound(.layerNotFound(String(layer.layerID)), format) }
            let base = AttachmentURLs(origin: request.host.map { "http://" + $0 } ?? origin, path: path, token: parameters["token"])
            return queryAttachments(published, parameters: parameters, format: format, urls: base)
        case .attachmentInfos(let layer, let objectID):
            guard let published = layers[layer] else { return notFound(.layerNotFound(String(layer.layerID)), format) }
            return attachmentInfos(published, objectID: objectID, format: format)
        case .attachment(let layer, let objectID, let attachmentID):
            guard let published = layers[layer] else { return notFound(.layerNotFound(String(layer.layerID)), format) }
            return attachment(published, objectID: objectID, attachmentID: attachmentID, format: format)
        case .unknownService(let name):
            return notFound(.serviceNotFound(name), format)
        case .unknownLayer(_, let id):
            return notFound(.layerNotFound(id), format)
        case .invalidURL, .outside:
            return notFound(.invalidURL, format)
        }
    }

    private func notFound(_ error: ArcGISServiceError, _ format: ResponseFormat) -> Response {
        recorder.error()
        return RESTResponseWriter.error(error, format: format)
    }

    private func published(_ service: SampleService) -> [PublishedLayer] {
        service.members.compactMap { layers[$0] }
    }

    /// The bearer token of `X-Esri-Authorization` or `Authorization`, if either carries one.
    static func bearerToken(_ headers: HTTPFields) -> String? {
        for name in [HTTPFields.Element.Name("X-Esri-Authorization"), .authorization] {
            guard let name, let value = headers[name] else { continue }
            let parts = value.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" { return String(parts[1]).trimmingSpaces() }
        }
        return nil
    }
}

/// One service request counted in progress (``StatisticsRecorder/began()``) until it ends, once: answered when its
/// handler returns, or abandoned, when its client leaves and the handler's task is cancelled (earlier than the
/// abandoned handler returns: that waits for its task to be scheduled again).
///
/// Abandoned requests count in the running count but not in ``AnsweredServiceSpans``: the server learns of a
/// departure after the fact, when the client may have sent its next request already.
private final class ServiceRequestInProgress: Sendable {
    private let recorder: StatisticsRecorder
    private let beganAt: Int
    private let ended = Atomic<Bool>(false)

    init(_ recorder: StatisticsRecorder) {
        self.recorder = recorder
        beganAt = recorder.began()
    }

    func end(answered: Bool) {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        recorder.ended(began: beganAt, answered: answered)
    }
}
