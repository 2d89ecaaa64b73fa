import FeatureService
@testable import RequestContract

@testable import QueryWorker

/// A layer's entry as the contract tests spell it: what the result message says of one layer, built as the
/// seam's outcome that the worker carries into the message unchanged.
enum LayerEntry {
    case succeeded(count: Int, complete: Bool, selection: LayerSelection)
    case failed(FeatureServiceError)
}

extension ServiceLayerOutcome {
    init(
        url: String, layerId: Int? = nil, name: String? = nil, objectIdField: String? = nil, collection: String? = nil,
        filteredBy: FilterSite? = nil, incompleteReason: IncompleteReason? = nil, outcome: LayerEntry
    ) {
        switch outcome {
        case .failed(let error):
            self.init(url: url, result: .failure(error))
        case .succeeded(let count, let complete, let selection):
            self.init(url: url, result: .success(ServiceLayerResult(
                url: url, layerId: layerId, name: name, objectIdField: objectIdField, count: count, isComplete: complete,
                selection: selection, collection: collection, filteredBy: filteredBy, incompleteReason: incompleteReason)))
        }
    }

    /// The entry as the tests read it back: the answer's count, completeness and selection, or the contract's error.
    var outcome: ContractEntry {
        switch result {
        case .success(let answer): .succeeded(count: answer.count, complete: answer.isComplete, selection: answer.selection)
        case .failure(let error): .failed(ContractError(error))
        }
    }
}

/// What a layer's entry says in the contract's terms, for assertions.
enum ContractEntry {
    case succeeded(count: Int, complete: Bool, selection: LayerSelection)
    case failed(ContractError)
}
