extension SettingsKey {
    package static let staticMembership = SettingsKey(
        "staticMembership", .bool,
        "Join the group as a static member named by workerId (group.instance.id): a restart within the session takes its partitions back without a rebalance.")
}

extension SettingsResolver {
    /// Static membership (Kafka's KIP-345): the consumer's `group.instance.id` is the worker id, so a worker that
    /// restarts under the same name within `session.timeout.ms` takes its partitions back without a rebalance of
    /// the group (docs/operations.md, "Static membership"). Off by default: a worker id that changes with each
    /// start (`hostname-pid` outside a container, a Deployment's pod names) would leave each old instance in the
    /// group until its session ends, its partitions unread meanwhile, since a static member never leaves the
    /// group when it stops.
    mutating func resolveStaticMembership(_ settings: inout WorkerSettings) throws(SettingsError) {
        guard let found = try find(.staticMembership) else { return }
        settings.staticMembership = try found.bool()
        // One name, not two: a passed-through instance id beside the switch would say which is meant only by order.
        if settings.staticMembership, settings.kafkaProperties["group.instance.id"] != nil {
            throw found.error(
                "staticMembership sets kafka.group.instance.id to the workerId itself: remove kafka.group.instance.id",
                code: .conflict)
        }
    }
}
