import Assemblies
import Foundation
import Testing

// Code that waits for another thread from inside a resolution. Each scenario runs on its own
// thread with a time limit, so that a deadlock fails the test instead of hanging the run.

private final class Service {
    var peer: AnyObject?
}

/// Lets a body reach what the test sets up after the assembly exists.
private final class Slot<Value>: @unchecked Sendable {
    // @unchecked: set by the test before the reads that use it.
    var value: Value?
}

private final class Family: Assembly, @unchecked Sendable {
    let counter = Counter()
    /// Runs in the middle of the body of `waiting` and `waitingSingleton`.
    let wait = Slot<@Sendable () -> Void>()
    /// Runs in the middle of the body of `first`.
    let inFirst = Slot<@Sendable () -> Void>()
    let other = Slot<Family>()

    var first: Service {
        define(scope: .singleton) {
            counter.tick()
            self.inFirst.value?()
            return Service()
        }
    }

    var second: Service {
        define(scope: .singleton) {
            counter.tick()
            return Service()
        }
    }

    /// An object-graph body that reads a singleton, then waits for another thread.
    var waiting: Service {
        define {
            let service = Service()
            service.peer = self.first
            self.wait.value?()
            return service
        }
    }

    /// A singleton body that waits for another thread.
    var waitingSingleton: Service {
        define(scope: .singleton) {
            counter.tick()
            let service = Service()
            self.wait.value?()
            return service
        }
    }

    /// A singleton whose body reads a singleton of the other family.
    var crossing: Service {
        define(scope: .singleton) { definition in
            counter.tick()
            let service = definition *~> Service()
            self.wait.value?()
            service.peer = self.other.value!.crossing
            return service
        }
    }

    /// Like `crossing`, but reads the other family before registering.
    var crossingUnregistered: Service {
        define(scope: .singleton) {
            let service = Service()
            self.wait.value?()
            service.peer = self.other.value!.crossingUnregistered
            return service
        }
    }

    var activating: Service {
        define(scope: .singleton) {
            counter.tick()
            self.wait.value?()
            self.activate()
            return Service()
        }
    }

    override func buildEagerSingletons() {
        _ = first
        _ = second
    }
}

/// Two graphs, one per thread, each holding a singleton back for its `afterAllInjections` step,
/// whose steps read the other's singleton and then build a singleton of another family.
private final class StepsFamily: Assembly, @unchecked Sendable {
    let counter = Counter()
    /// Runs first in each step: both graphs have held their singleton back before either step reads.
    let arrive = Slot<@Sendable () -> Void>()
    let sides = Slot<[Family]>()

    var left: Service {
        define {
            let service = self.leftStep  // its step is queued when it leaves
            service.peer = self.leftSingleton  // finished after: held back for the step
            return service
        }
    }

    var right: Service {
        define {
            let service = self.rightStep
            service.peer = self.rightSingleton
            return service
        }
    }

    var leftStep: Service {
        define { definition in
            definition.afterAllInjections { self.step($0, reading: self.rightSingleton, side: 0) }
            return Service()
        }
    }

    var rightStep: Service {
        define { definition in
            definition.afterAllInjections { self.step($0, reading: self.leftSingleton, side: 1) }
            return Service()
        }
    }

    var leftSingleton: Service {
        define(scope: .singleton) {
            counter.tick()
            return Service()
        }
    }

    var rightSingleton: Service {
        define(scope: .singleton) {
            counter.tick()
            return Service()
        }
    }

    /// Like `left` and `right`, but after holding its singleton back for `leftStep`'s step, each reads
    /// the other's held singleton — one thread takes the other's to break the cycle of waits — and
    /// then throws: the steps never run.
    var throwingLeft: Service {
        get throws {
            try define {
                let service = self.leftStep
                service.peer = self.leftSingleton
                self.arrive.value?()
                _ = self.rightSingleton
                if service.peer != nil { throw Unfinished() }
                return service
            }
        }
    }

    var throwingRight: Service {
        get throws {
            try define {
                let service = self.rightStep
                service.peer = self.rightSingleton
                self.arrive.value?()
                _ = self.leftSingleton
                if service.peer != nil { throw Unfinished() }
                return service
            }
        }
    }

    struct Unfinished: Error {}

    private func step(_ service: Service, reading other: @autoclosure () -> Service, side: Int) {
        arrive.value?()
        // The other graph holds `other` back for its own step: one thread takes it to break the cycle
        // of waits, then the other thread takes this graph's.
        _ = other()
        // A singleton of another family, built in a graph of its own: finished, it waits for what
        // this thread took.
        _ = sides.value![side].second
    }
}

@Suite struct DeadlockTests {
    @Test func aGraphThatBuiltASingletonDoesNotBlockOtherThreadsWhileItWaits() {
        let family = Family()
        let unrelated = Family()
        family.wait.value = {
            // Another thread needs a singleton — of another family, and of this one — while this
            // graph, which has built one, is still open.
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = unrelated.first
                _ = family.second
                done.signal()
            }.start()
            done.wait()
        }
        #expect(finishes { _ = family.waiting })
        #expect(family.counter["first"] == 1)
        #expect(family.counter["second"] == 1)
    }

    @Test func aSingletonBodyMayWaitForAThreadThatReadsAnotherSingleton() {
        let family = Family()
        let unrelated = Family()
        family.wait.value = {
            let done = DispatchSemaphore(value: 0)
            Thread {
                _ = unrelated.first
                _ = family.first
                done.signal()
            }.start()
            done.wait()
        }
        #expect(finishes { _ = family.waitingSingleton })
        #expect(family.counter["waitingSingleton"] == 1)
    }

    @Test func twoThreadsBuildingSingletonsOfTwoFamiliesThatReadEachOtherBothFinish() {
        for _ in 0..<20 {
            let left = Family()
            let right = Family()
            left.other.value = right
            right.other.value = left
            // Both bodies have registered their instance before either reads the other.
            let bothInside = DispatchGroup()
            bothInside.enter()
            bothInside.enter()
            let arrive: @Sendable () -> Void = {
                bothInside.leave()
                bothInside.wait()
            }
            left.wait.value = arrive
            right.wait.value = arrive
            let leftResult = Slot<Service>()
            let rightResult = Slot<Service>()
            #expect(
                finishes {
                    onThreads(2) { thread in
                        if thread == 0 {
                            leftResult.value = left.crossing
                        } else {
                            rightResult.value = right.crossing
                        }
                    }
                }
            )
            guard let leftService = leftResult.value, let rightService = rightResult.value else { return }
            #expect(leftService.peer === rightService)
            #expect(rightService.peer === leftService)
            #expect(left.crossing === leftService)
            #expect(right.crossing === rightService)
            #expect(left.counter["crossing"] == 1)
            #expect(right.counter["crossing"] == 1)
        }
    }

    @Test func activatingFromABodyWhileAnotherThreadActivatesFinishes() {
        let family = Family()
        let activating = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // The other thread activates first: it builds the eager singleton `first`, and holds it
        // until this thread, activating from a body, waits for it.
        family.inFirst.value = {
            activating.signal()
            release.wait()
        }
        family.wait.value = { activating.wait() }
        #expect(
            finishes {
                onThreads(3) { thread in
                    switch thread {
                    case 0:
                        _ = family.activating
                    case 1:
                        family.activate()
                    default:
                        untilSomeoneWaits(for: family, "first")
                        release.signal()
                    }
                }
            }
        )
        #expect(family.counter["first"] == 1)
        #expect(family.counter["second"] == 1)
    }

    @Test func activatingFromABodyOfItsOwnEagerSingletonFinishes() {
        let family = Family()
        #expect(finishes { family.activate() })
        #expect(finishes { _ = family.activating })
        #expect(family.counter["first"] == 1)
    }

    @Test func aBodyThatWaitsForAThreadNeedingItsOwnSingletonIsReported() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Assembly.singletonWaitWarningDelay = 0.2
            let family = Family()
            family.wait.value = {
                // The other thread needs the very singleton this body builds: it can't get it
                // before this body returns. Give up after a while, so that the child exits.
                let done = DispatchSemaphore(value: 0)
                Thread {
                    _ = family.waitingSingleton
                    done.signal()
                }.start()
                _ = done.wait(timeout: .now() + 2)
            }
            _ = family.waitingSingleton
        }
        let message = stderr(of: result)
        #expect(message.contains("has waited 0.2 s for the singleton Family.waitingSingleton"))
        #expect(message.contains("which thread"))
        #expect(message.contains("Still waiting."))
    }

    @Test func twoThreadsReadingEachOtherBeforeRegisteringStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let left = Family()
            let right = Family()
            left.other.value = right
            right.other.value = left
            let bothInside = DispatchGroup()
            bothInside.enter()
            bothInside.enter()
            let arrive: @Sendable () -> Void = {
                bothInside.leave()
                bothInside.wait()
            }
            left.wait.value = arrive
            right.wait.value = arrive
            onThreads(2) { thread in
                _ = thread == 0 ? left.crossingUnregistered : right.crossingUnregistered
            }
        }
        let message = stderr(of: result)
        #expect(message.contains("circular dependency, read again before it was registered"))
        #expect(message.contains("Family.crossingUnregistered → Family.crossingUnregistered"))
    }
    @Test func twoGraphsWhoseStepsTakeEachOthersHeldSingletonsBothFinish() {
        for _ in 0..<20 {
            let family = StepsFamily()
            family.sides.value = [Family(), Family()]
            let bothInSteps = DispatchGroup()
            bothInSteps.enter()
            bothInSteps.enter()
            family.arrive.value = {
                bothInSteps.leave()
                bothInSteps.wait()
            }
            let results = Slot<[Service]>()
            results.value = []
            let lock = NSLock()
            #expect(
                finishes {
                    onThreads(2) { thread in
                        let service = thread == 0 ? family.left : family.right
                        lock.withLock { results.value!.append(service) }
                    }
                }
            )
            guard results.value?.count == 2 else { return }
            #expect(family.counter["leftSingleton"] == 1)
            #expect(family.counter["rightSingleton"] == 1)
            #expect(family.leftSingleton === family.leftSingleton)
            #expect(family.sides.value!.allSatisfy { $0.counter["second"] == 1 })
        }
    }
    @Test func aGraphThatThrowsAfterAnotherThreadTookAnInstanceHeldForItsStepsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            stopsAfter(seconds: 20)
            let family = StepsFamily()
            let bothHolding = DispatchGroup()
            bothHolding.enter()
            bothHolding.enter()
            family.arrive.value = {
                bothHolding.leave()
                bothHolding.wait()
            }
            onThreads(2) { thread in
                _ = try? thread == 0 ? family.throwingLeft : family.throwingRight
            }
        }
        let message = stderr(of: result)
        // Whichever thread took the other's singleton, the message names it and the chain it was
        // read through.
        let took = [
            "the instance of StepsFamily.leftSingleton (read through StepsFamily.throwingRight → StepsFamily.leftSingleton)",
            "the instance of StepsFamily.rightSingleton (read through StepsFamily.throwingLeft → StepsFamily.rightSingleton)",
        ]
        #expect(took.contains { message.contains("a read threw after another thread took \($0)") }, "\(message)")
        #expect(message.contains("which the graph that threw held back for its `afterAllInjections` steps"))
        #expect(message.contains("eagerly with activate() before other threads read it"))
    }
}
