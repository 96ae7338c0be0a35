// Running a fixed amount of work on one or more threads and timing it on the wall clock.

import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Something to time on several threads at once: `run(count)` performs `count` operations.
struct ThreadedSubject: Sendable {
    let name: String
    let run: @Sendable (Int) -> Void
    /// One top-level read, for the checks.
    let resolve: @Sendable () -> AnyObject
    /// Puts the state the reads are measured in in place, and returns how to take it away:
    /// ``measureSideBySideOnTwoThreads(_:plan:)`` calls it before each sample of the subject and ends
    /// it after, outside the time it measures.
    let condition: @Sendable () -> @Sendable () -> Void

    init<R: Resolution & Sendable>(
        _ name: String,
        _ resolution: R,
        during condition: @escaping @Sendable () -> @Sendable () -> Void = { {} }
    ) {
        self.name = name
        run = { count in repeatResolving(resolution, count: count) }
        resolve = { resolution.resolve() }
        self.condition = condition
    }

    /// A control that touches no shared state and allocates nothing: arithmetic only. How much
    /// faster it runs on two threads shows how much parallelism the machine offers right now.
    static let cpuOnlyControl = ThreadedSubject(name: "CPU-only control") { count in
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<(count * 64) {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
        }
        blackHole(state == 0 ? ControlResult() : nil)
    }

    private init(name: String, run: @escaping @Sendable (Int) -> Void) {
        self.name = name
        self.run = run
        resolve = { ControlResult() }
        condition = { {} }
    }
}

private final class ControlResult {}

/// The body a new thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

private func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    let result = pthread_create(
        &thread,
        nil,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
            return nil
        },
        context
    )
    precondition(result == 0, "pthread_create failed with \(result)")
    return thread!
    #else
    var thread = pthread_t()
    let result = pthread_create(
        &thread,
        nil,
        { context in
            Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        },
        context
    )
    precondition(result == 0, "pthread_create failed with \(result)")
    return thread
    #endif
}

/// Runs `body(index)` on `count` new threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let threads = (0..<count).map { index in startThread { body(index) } }
    for thread in threads {
        pthread_join(thread, nil)
    }
}

/// Wall-clock nanoseconds for `operations` operations split evenly over `threads` new threads.
func wallTime(of subject: ThreadedSubject, operations: Int, threads: Int) -> UInt64 {
    let share = operations / threads
    let run = subject.run
    let start = monotonicNanoseconds()
    onThreads(threads) { _ in run(share) }
    return monotonicNanoseconds() - start
}

/// How many operations make a sample of each subject: about `plan.threadSampleNanoseconds` on one
/// thread, an even number, so that two threads can share it.
private func sampleSizes(_ subjects: [ThreadedSubject], plan: MeasurementPlan) -> [Int] {
    subjects.map { 2 * max(1, calibrate($0.run, toTake: plan.threadSampleNanoseconds) / 2) }
}

/// Samples every subject on one thread and on two threads once per round, in a shuffled order.
///
/// Each subject does the same total amount of work on one thread as on two, sized to take about
/// `plan.threadSampleNanoseconds` on one thread.
///
/// - Returns: Wall-clock nanoseconds per operation, indexed `[subject][round]`, on one thread and
///   on two.
func measureThreadScaling(
    _ subjects: [ThreadedSubject],
    plan: MeasurementPlan
) -> (oneThread: [[Double]], twoThreads: [[Double]]) {
    let operations = sampleSizes(subjects, plan: plan)
    var oneThread = Array(repeating: [Double](), count: subjects.count)
    var twoThreads = oneThread
    var order = subjects.indices.flatMap { [($0, 1), ($0, 2)] }
    for _ in 0..<plan.threadRounds {
        order.shuffle()
        for (index, threads) in order {
            let elapsed = wallTime(of: subjects[index], operations: operations[index], threads: threads)
            let perOperation = Double(elapsed) / Double(operations[index])
            if threads == 1 {
                oneThread[index].append(perOperation)
            } else {
                twoThreads[index].append(perOperation)
            }
        }
    }
    return (oneThread, twoThreads)
}

/// Samples every subject on the same two threads, which stay up for the whole measurement and start
/// and end each sample together, in a new random order each round: the samples of one round differ
/// in what the threads read, not in which threads read it or where the scheduler put them.
///
/// Each sample is the same number of reads as in ``measureThreadScaling(_:plan:)``, split over the
/// two threads, read in the subject's ``ThreadedSubject/condition``, which the first thread puts in
/// place before the sample starts and takes away after both have ended.
///
/// - Returns: Wall-clock nanoseconds per operation, indexed `[subject][round]`.
func measureSideBySideOnTwoThreads(_ subjects: [ThreadedSubject], plan: MeasurementPlan) -> [[Double]] {
    let operations = sampleSizes(subjects, plan: plan)
    var schedule = [Int]()
    var order = Array(subjects.indices)
    for _ in 0..<plan.threadRounds {
        order.shuffle()
        schedule += order
    }
    let steps = schedule
    let barrier = TwoThreadBarrier()
    let elapsed = ElapsedTimes(count: steps.count)
    // The second thread's start, for the first: a sample starts when either thread starts it (the
    // other may still be waking up), and ends when both have ended.
    let secondStart = Atomic<UInt64>(0)
    onThreads(2) { thread in
        for (step, index) in steps.enumerated() {
            let run = subjects[index].run
            let end = thread == 0 ? subjects[index].condition() : nil
            barrier.arriveAndWait()
            let start = monotonicNanoseconds()
            if thread == 1 { secondStart.store(start, ordering: .relaxed) }
            run(operations[index] / 2)
            barrier.arriveAndWait()
            if thread == 0 {
                elapsed.record(monotonicNanoseconds() - min(start, secondStart.load(ordering: .relaxed)), at: step)
                end?()
            }
        }
    }
    var samples = Array(repeating: [Double](), count: subjects.count)
    for (step, index) in steps.enumerated() {
        samples[index].append(Double(elapsed.times[step]) / Double(operations[index]))
    }
    return samples
}

/// Where the first of two threads writes how long each sample took; read once both have ended.
private final class ElapsedTimes: @unchecked Sendable {
    private(set) var times: [UInt64]
    init(count: Int) { times = Array(repeating: 0, count: count) }
    func record(_ nanoseconds: UInt64, at step: Int) { times[step] = nanoseconds }
}
