final class Knight {
    let name: String
    var quest: Quest?
    var horse: Horse?
    init(name: String) { self.name = name }
}

final class Quest {
    weak var knight: Knight?
}

final class Horse {}

final class Castle {}
