import Testing

@testable import Assemblies

private final class TableAssembly: Assembly, @unchecked Sendable {}

/// A key of `TableAssembly` whose hash is `hash` and whose line tells it from the others.
private func key(line: UInt, hash: UInt) -> DefinitionKey {
    let name: StaticString = "member"
    let file: StaticString = "KeyTableTests.swift"
    return DefinitionKey(
        hash: hash,
        name: name.utf8Start,
        place: DefinitionKey.place(line: line, nameCount: name.utf8CodeUnitCount, endsWithParameters: false),
        file: UInt(bitPattern: file.utf8Start),
        assembly: TableAssembly.self,
        type: Int.self
    )
}

/// The table of keys that graph entries and the singleton cache number: its probing, growth and
/// emptying, driven directly, with keys whose hashes collide.
@Suite struct KeyTableTests {
    /// Adds `keys` in order, growing the table as the engine does; returns their numbers.
    private func insert(_ keys: [DefinitionKey], into table: inout KeyTable) -> [Int] {
        keys.map { key in
            if table.isFull { table.grow() }
            let (index, slot) = table.find(key)
            guard index < 0 else {
                Issue.record("a key not yet added was found, numbered \(index)")
                return index
            }
            return table.insert(key, slot: slot)
        }
    }

    @Test func keysWhoseHashesCollideAreEachFoundAfterGrowing() {
        // Three hashes for 200 keys: long runs of probes, wrapping round the end of the slots.
        let keys = (1...200).map { key(line: UInt($0), hash: UInt($0 % 3) &* 0x9E37_79B9 | 0xFFFF) }
        var table = KeyTable(capacity: 4)
        defer { table.deallocate() }
        let numbers = insert(keys, into: &table)
        #expect(numbers == Array(0..<200))
        #expect(keys.enumerated().allSatisfy { table.find($0.element).index == $0.offset })
        #expect(table.find(key(line: 201, hash: 0xFFFF)).index == -1)
    }

    @Test func anEmptiedTableHasNoKeyAndTakesThemAgain() {
        let keys = (1...200).map { key(line: UInt($0), hash: UInt($0 % 3) &* 0x9E37_79B9 | 0xFFFF) }
        var table = KeyTable(capacity: 4)
        defer { table.deallocate() }
        _ = insert(keys, into: &table)
        table.removeAll()
        #expect(table.count == 0)
        #expect(keys.allSatisfy { table.find($0).index == -1 })
        // Added again in the opposite order: every slot was cleared, or a stale one would answer.
        let again = insert(keys.reversed(), into: &table)
        #expect(again == Array(0..<200))
        #expect(keys.reversed().enumerated().allSatisfy { table.find($0.element).index == $0.offset })
    }
}
