import Testing

@testable import Assemblies

/// A small object, of the size a singleton often has.
private final class Small {}

/// Where ``AtomicCount`` keeps its word: on a cache line of its own (with the line beside it), so that
/// a count that every read of a family loads never shares a line with an object that threads retain
/// and release, nor with another count.
@Suite struct AtomicCountTests {
    @Test func eachCountHasAlignedMemoryThatNothingAllocatedBesideItShares() {
        var counts = [AtomicCounts]()
        var objects = [Small]()
        for _ in 0..<200 {
            counts.append(AtomicCounts(count: 1))
            objects.append(Small())
        }
        defer { for count in counts { count.deallocate() } }
        let blocks = counts.map { UInt(bitPattern: $0[0].word) }
        #expect(blocks.allSatisfy { $0 % 128 == 0 })
        for object in objects {
            let address = UInt(bitPattern: ObjectIdentifier(object))
            #expect(!blocks.contains { ($0..<$0 + 128).contains(address) })
        }
        #expect(Set(blocks.map { $0 / 128 }).count == blocks.count)
    }

    @Test func countsMadeTogetherEachHaveLinesOfTheirOwnAndStartAtZero() {
        let counts = AtomicCounts(count: 7)
        defer { counts.deallocate() }
        let words = (0..<7).map { UInt(bitPattern: counts[$0].word) }
        #expect(words.allSatisfy { $0 % 128 == 0 })
        #expect(zip(words, words.dropFirst()).allSatisfy { $1 - $0 == 128 })
        #expect((0..<7).allSatisfy { counts[$0].isZero })
        counts[3].increment()
        #expect(counts[3].value == 1 && counts[2].isZero && counts[4].isZero)
    }

    @Test func countsWhatIsAddedAndTakenAway() {
        let memory = AtomicCounts(count: 1)
        defer { memory.deallocate() }
        let count = memory[0]
        #expect(count.isZero)
        count.increment()
        count.increment()
        count.decrement()
        #expect(count.value == 1 && !count.isZero)
    }
}
