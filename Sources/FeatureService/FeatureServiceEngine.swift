/// Runs a query against feature services of some protocol and answers per layer: the seam between the worker
/// and the engines (ArcGIS REST today, OGC API Features next).
///
/// The worker holds one `any FeatureServiceEngine` (a ``FeatureServiceRouter`` in production) and never learns
/// which protocol a target speaks: it hands over protocol-neutral ``ServiceTarget``s and a ``ServiceQuery``, and
/// gets one ``ServiceLayerOutcome`` per layer back, whose selection is one ``LayerSelection`` case. A new
/// protocol is a new conformer registered with the router; nothing on the worker's side changes.
package protocol FeatureServiceEngine: Sendable {
    /// The target kinds this engine queries. The router sends it only these; an engine handed another kind
    /// answers that target with ``FeatureServiceError/Code/unsupportedTarget``.
    var kinds: Set<ServiceKind> { get }

    /// Runs `query` against every layer of `targets` at once. Each layer gets its own outcome (one failing
    /// layer never fails the others): the answer holds one list per target, in the targets' order, each in
    /// its layers' order. Per target, so that the router can hand an engine all of a request's targets of its
    /// kind in one call (bounds over the whole request, such as the number of layers, see every target) and
    /// still put mixed kinds back in order.
    ///
    /// Every layer of the call takes what it keeps from `budget`: when the budget is spent, layers stop
    /// fetching (in-flight pages are cancelled) and answer what they hold, marked incomplete. Cancelling the
    /// calling task aborts every transfer; the layers then fail with ``FeatureServiceError/Code/cancelled``.
    func query(_ targets: [ServiceTarget], _ query: ServiceQuery, budget: ResultBudget) async -> [[ServiceLayerOutcome]]
}
