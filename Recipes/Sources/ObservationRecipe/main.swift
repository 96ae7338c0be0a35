import Assemblies
import InMemoryTracing
import Logging
import Tracing

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
// The spans end innermost first: the outermost, the top-level read's, is the last.
for span in tracer.finishedSpans.reversed() {
    let parent = tracer.finishedSpans.first { $0.spanContext.spanID == span.spanContext.parentSpanID }
    let source = span.attributes["assemblies.source"]?.toSpanAttribute()
    guard case .some(.string(let source)) = source else { continue }
    print("span \(span.operationName) in \(parent?.operationName ?? "no parent"): \(source)")
}
kitchens.stopObservingResolutions()

print(kitchens.recordGraph { _ = kitchens.kitchen }.mermaid, terminator: "")
print(kitchens.buildReport { _ = kitchens.kitchen }.rows.map(\.definition.description))
