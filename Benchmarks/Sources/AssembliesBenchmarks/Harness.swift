// Timing: one resolution behind a protocol so each variant's timing loop is specialized for it, a
// black hole the optimizer can't see through, samples of a calibrated batch of resolutions, and
// rounds in which the variants run interleaved in a shuffled order.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One top-level resolution of a scenario's root object, as one variant performs it.
///
/// Timing loops are generic over the conforming type, so after specialization each loop calls the
/// variant's code directly: no closure call, no dynamic dispatch between iterations.
protocol Resolution {
    associatedtype Root: AnyObject
    func resolve() -> Root
}

/// Runs `count` resolutions, each dropping the previous graph, and keeps the last one from being
/// optimized away. The loop adds no work beyond what the variant does: no call per iteration, and
/// releasing the previous graph is the deallocation every variant's graph goes through.
@inline(__always)
func repeatResolving<R: Resolution>(_ resolution: R, count: Int) {
    var kept: R.Root?
    for _ in 0..<count {
        kept = resolution.resolve()
    }
    blackHole(kept)
}

/// Set only when an environment variable nobody sets is present: the optimizer can't prove the
/// black hole keeps nothing, so it can't delete or stack-promote the objects passed to it.
nonisolated(unsafe) private var blackHoleIsArmed = getenv("ASSEMBLIES_BENCHMARKS_ARM_BLACK_HOLE") != nil
nonisolated(unsafe) private var blackHoleSink: AnyObject?

@inline(never)
func blackHole(_ value: AnyObject?) {
    if blackHoleIsArmed { blackHoleSink = value }
}

/// Nanoseconds on a monotonic clock.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Something to time: `run(count)` performs `count` operations.
struct Subject {
    let name: String
    let run: (Int) -> Void
    /// The nanoseconds a batch of operations takes: `run` timed from outside, unless the subject
    /// times its batches itself (see ``init(name:run:measure:)``).
    let measure: (Int) -> UInt64

    init(name: String, run: @escaping (Int) -> Void) {
        self.name = name
        self.run = run
        measure = { count in time(run, count: count) }
    }

    /// A subject whose batches time themselves: for work that starts somewhere else — a task — and
    /// whose start-up is no part of an operation.
    init(name: String, run: @escaping (Int) -> Void, measure: @escaping (Int) -> UInt64) {
        self.name = name
        self.run = run
        self.measure = measure
    }
}

extension Subject {
    init<R: Resolution>(_ name: String, _ resolution: R) {
        self.init(name: name) { count in repeatResolving(resolution, count: count) }
    }
}

/// How long and how often to measure.
struct MeasurementPlan {
    /// The time one sample should take; a sample times a batch of operations.
    var sampleNanoseconds: UInt64
    /// Rounds per scenario; each round takes one sample of every subject, in a shuffled order.
    var rounds: Int
    /// Work per thread-scaling sample, timed on one thread.
    var threadSampleNanoseconds: UInt64
    var threadRounds: Int

    static let full = MeasurementPlan(
        sampleNanoseconds: 2_000_000,
        rounds: 400,
        threadSampleNanoseconds: 20_000_000,
        threadRounds: 66
    )
    static let quick = MeasurementPlan(
        sampleNanoseconds: 200_000,
        rounds: 15,
        threadSampleNanoseconds: 4_000_000,
        threadRounds: 5
    )
}

/// Times `run(count)` once.
func time(_ run: (Int) -> Void, count: Int) -> UInt64 {
    let start = monotonicNanoseconds()
    run(count)
    return monotonicNanoseconds() - start
}

/// How many operations make a sample of about `nanoseconds`, after warming the subject up.
func calibrate(_ run: (Int) -> Void, toTake nanoseconds: UInt64) -> Int {
    calibrate(measuring: { count in time(run, count: count) }, toTake: nanoseconds)
}

/// How many operations make a sample of about `nanoseconds`, as `measure` times batches.
func calibrate(measuring measure: (Int) -> UInt64, toTake nanoseconds: UInt64) -> Int {
    var count = 1
    while true {
        let elapsed = measure(count)
        if elapsed >= nanoseconds / 8 || count >= 1 << 30 {
            let scaled = Double(count) * Double(nanoseconds) / Double(max(elapsed, 1))
            return max(1, Int(scaled.rounded()))
        }
        count *= 2
    }
}

/// Samples every subject once per round, in a new random order each round.
///
/// - Returns: Nanoseconds per operation, indexed `[subject][round]`.
func measureInterleaved(_ subjects: [Subject], plan: MeasurementPlan) -> [[Double]] {
    let counts = subjects.map { calibrate(measuring: $0.measure, toTake: plan.sampleNanoseconds) }
    var samples = Array(repeating: [Double](), count: subjects.count)
    var order = Array(subjects.indices)
    for _ in 0..<plan.rounds {
        order.shuffle()
        for index in order {
            let elapsed = subjects[index].measure(counts[index])
            samples[index].append(Double(elapsed) / Double(counts[index]))
        }
    }
    return samples
}
