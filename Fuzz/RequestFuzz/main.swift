// The request fuzzer's tool; Fuzz/run-request-fuzz.sh and the live run drive it.
//
//   RequestFuzz decode   [--count N] [--seed S] [--schema-sample FILE] [--sample-every K]
//   RequestFuzz generate [--count N] [--seed S] [--id-prefix P] [--max-bytes B] --out FILE
//   RequestFuzz show     --index I [--seed S] [--id-prefix P] [--max-bytes B]
//
// `decode` runs N generated messages through the worker's decoder (as a worker without a credentials file
// configures it) and prints messages/s, the outcomes by kind and code, every ill-formed answer, and the
// process's maximum RSS; it exits 1 when an answer is ill-formed. `--schema-sample` writes, for the
// contract's JSON Schema check (Fuzz/request_fuzz_schema_check.py), every accepted message and every K-th
// rejected one. `generate` writes messages for a live worker as JSON lines (value and key in base64, the
// message's unique id, the decoder's answer). `show` prints one message, to reproduce a failure.
import Foundation

let options = FuzzOptions(CommandLine.arguments.dropFirst())
do {
    switch options.mode {
    case "decode": try DecodeRun(options).run()
    case "generate": try GenerateRun(options).run()
    case "show": try showOne(options)
    default: throw FuzzToolError("unknown mode \(options.mode); expected decode, generate or show")
    }
} catch {
    FileHandle.standardError.write(Data("RequestFuzz: \(error)\n".utf8))
    exit(2)
}
