/// Placeholder until the worker lands.
enum QueryWorkerModule {}
