import Assemblies
import Synchronization
import Tracing

/// Each top-level read as a trace: one span per read, nested as the reads were, with the times the
/// bodies took.
///
/// Reads arrive innermost first, once they have returned, so the spans of a top-level read are made
/// when it returns, outermost first, each ending when its read was reported.
final class TracingObserver<T: Tracer>: ResolutionObserver {
    private let tracer: T
    /// The reads of each thread whose top-level read hasn't returned yet, with when they returned.
    private let pending = Mutex<[Int: [(resolution: Resolution, end: UInt64)]]>([:])

    init(tracer: T) {
        self.tracer = tracer
    }

    func didResolve(_ resolution: Resolution) {
        let end = DefaultTracerClock.now.nanosecondsSinceEpoch
        let tree: [(resolution: Resolution, end: UInt64)]? = pending.withLock { pending in
            pending[resolution.threadNumber, default: []].append((resolution, end))
            guard resolution.depth == 0 else { return nil }
            let reads = pending.removeValue(forKey: resolution.threadNumber) ?? []
            pending[resolution.threadNumber] = reads.filter { $0.resolution.sequence < resolution.sequence }
            return reads.filter { $0.resolution.sequence >= resolution.sequence }
        }
        guard let tree else { return }
        var spans: [UInt64: T.Span] = [:]
        for (read, end) in tree.sorted(by: { $0.resolution.sequence < $1.resolution.sequence }) {
            let parent = read.parentSequence.flatMap { spans[$0] }
            let span = tracer.startSpan(
                read.definition.description,
                context: parent?.context ?? .topLevel,
                at: Instant(nanosecondsSinceEpoch: end - read.nanoseconds)
            )
            span.attributes["assemblies.scope"] = "\(read.scope)"
            span.attributes["assemblies.source"] = "\(read.source)"
            spans[read.sequence] = span
        }
        for (read, end) in tree.sorted(by: { $0.resolution.sequence > $1.resolution.sequence }) {
            spans[read.sequence]?.end(at: Instant(nanosecondsSinceEpoch: end))
        }
    }

    /// A moment given in nanoseconds since 1970.
    struct Instant: TracerInstant {
        let nanosecondsSinceEpoch: UInt64
        static func < (left: Instant, right: Instant) -> Bool {
            left.nanosecondsSinceEpoch < right.nanosecondsSinceEpoch
        }
    }
}
