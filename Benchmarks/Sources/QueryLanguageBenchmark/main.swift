// query-language-benchmark: throughput of the QueryLanguage module on one core, against its targets and
// against a hand-written Swift closure measured in the same run. A benchmark, not a timed test.
//
//   swift run -c release query-language-benchmark [--seconds 3] [--records 2400000]
//
// Targets (from the issue): parse + validate + render of typical clauses at 200,000 a second or more;
// evaluating `Roll_LandValue > 1000000 AND UseType = 'Residential'` over 2.4 million records in under 1 s.
// Also request messages decoded per second (RequestDecoder, and its JSON step alone) beside Foundation's
// JSONSerialization parsing the same bytes: the worker's first step for every request.

let options = BenchmarkOptions(arguments: Array(CommandLine.arguments.dropFirst()))
QueryLanguageBenchmark.run(options)
