#!/usr/bin/env python3
"""Splits a worker profile (folded stacks from folded_stacks.py collapse) into the parts of the code that own the
CPU, for docs/performance/profile.md: each stack counts once, for the first rule (in order) one of whose
frame substrings it contains.

    categorize.py stacks.folded
"""
import collections
import sys

RULES = [
    # The loop's own work; the jobs it runs for tasks on it (CurlMultiLoop.runJobs, the worker's requests when
    # httpLoopRunsRequests) fall through to the rules below.
    ("curl loop (libcurl, sockets, transfers)", [
        "CurlMultiLoop.socketAction", "CurlMultiLoop.drainCompleted", "CurlMultiLoop.handle", "CurlEventPoll.wait",
        "CurlMultiLoop.stopAll"]),
    ("JSON logging (status lines)", [
        "JSONLogHandler", "Logger.info", "Logger.log", "Logger.notice", "JSONStatusLine", "BatchingDescriptorWriter",
        "WorkerEvents"]),
    ("request decoding (RequestDecoder)", ["RequestDecoder"]),
    ("outcome encoding (ResultMessage/ErrorMessage)", ["ResultMessage", "ErrorMessage.", "OutcomeMessage", "producerMessages"]),
    ("producer send (KafkaProducer)", ["KafkaProducer", "KafkaDeliveryBatch"]),
    ("consumer, Swift side (poll loop, messages)", ["KafkaConsumer", "KafkaConsumerMessages", "MergeStorage"]),
    ("librdkafka's own threads", ["rdk:"]),
    ("engine (ArcGIS engine, execution, query language)", [
        "ArcGIS", "EngineExecution", "FeatureServiceEngine", "FeatureServiceRouter", "LayerQueryRunner", "HostLimiter",
        "StandardEngines", "HTTPClient", "CurlTransfer", "CurlResponseSink", "RequestValidation", "QueryLanguage", "QueryParameters", "Authentication"]),
    ("request lifecycle machine, registry, offsets", ["WorkerCore.StateMachine", "TaskRegistry", "InFlightGate", "transition"]),
    ("worker core, rest (handle, deliver, runs)", ["WorkerCore", "RequestExecutor", "QueryWorkerService", "WorkerEvents"]),
    ("Swift concurrency runtime and dispatch (task switches, wakeups)", [
        "swift_job_run", "swift_task", "_dispatch", "swift::", "swift_continuation", "futex"]),
]


def main():
    totals = collections.Counter()
    samples = 0
    for line in open(sys.argv[1]):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not count.isdigit():
            continue
        samples += int(count)
        name = next((name for name, keys in RULES if any(key in stack for key in keys)), "other")
        totals[name] += int(count)
    for name, count in totals.most_common():
        print("%6.2f%%  %6d  %s" % (100.0 * count / max(samples, 1), count, name))
    print("%6.2f%%  %6d  samples in all" % (100.0, samples))


if __name__ == "__main__":
    main()
