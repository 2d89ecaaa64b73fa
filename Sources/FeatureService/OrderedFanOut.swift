/// Runs one child task per element at once and answers in the elements' order: what every fan-out of the
/// engines and the router needs (targets, layers, collections, engines), written once.
package enum OrderedFanOut {
    /// `body` of every element, in the elements' order. One element (the usual request) runs in this task,
    /// without a task group.
    package static func map<Element: Sendable, Output: Sendable>(
        _ elements: [Element], _ body: @escaping @Sendable (Element) async -> Output
    ) async -> [Output] {
        if elements.count == 1 { return [await body(elements[0])] }
        return await withTaskGroup(of: (Int, Output).self) { group in
            for (index, element) in elements.enumerated() {
                group.addTask {
                    // The output first, the tuple after: Swift 6.3.1's optimizer miscompiles
                    // `return (index, X(.success(try await ...)))` inside a do/catch in a child task (the captured
                    // index comes back wrong, so outputs went missing or the store below trapped out of range) in
                    // release builds only. Reproducer and commands: docs/swift-6.3.1-miscompile/ (check it with a
                    // new toolchain before writing this differently).
                    let output = await body(element)
                    return (index, output)
                }
            }
            var outputs = [Output?](repeating: nil, count: elements.count)
            for await (index, output) in group { outputs[index] = output }
            return outputs.compactMap { $0 }
        }
    }
}
