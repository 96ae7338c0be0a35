import Assemblies
import InMemoryTracing
import Logging

// Resolution events bridged to swift-log and to swift-distributed-tracing, a recorded graph and a
// build report.

LoggingSystem.bootstrap { label in PrintingLogHandler(label: label) }

let kitchens = KitchenAssembly()
var logger = Logger(label: "assemblies")
logger.logLevel = .debug
kitchens.observeResolutions(with: LoggingObserver(logger: logger))
_ = kitchens.kitchen

let tracer = InMemoryTracer()
kitchens.observeResolutions(with: TracingObserver(tracer: tracer))
_ = kitchens.kitchen
for span in tracer.finishedSpans.sorted(by: {
    $0.startInstant.nanosecondsSinceEpoch < $1.startInstant.nanosecondsSinceEpoch
}) {
    let parent = tracer.finishedSpans.first { $0.spanContext.spanID == span.spanContext.parentSpanID }
    print(
        "span \(span.operationName) in \(parent?.operationName ?? "no parent"): \(span.attributes["assemblies.source"]!)"
    )
}
kitchens.stopObservingResolutions()

print(kitchens.recordGraph { _ = kitchens.kitchen }.mermaid, terminator: "")
print(kitchens.buildReport { _ = kitchens.kitchen }.rows.map(\.definition.description))
