import Assemblies

// The code of the article *Getting Started with Assemblies*: each file holds its blocks verbatim.

let assembly = KnightsAssembly()
let knight = assembly.knight
print(knight.name, "rides", knight.horse === assembly.horse ? "a shared horse" : "its own horse")

let stables = StablesAssembly()
print(
    "horses:",
    stables.horse === stables.horse ? "one" : "two",
    "/ stables:",
    stables.stables === stables.stables ? "one" : "two"
)

let questing = QuestsAssembly().knight
print("the quest's knight is the knight:", questing.quest?.knight === questing)

let realm = RealmAssembly()
print("the realm's stables are the family's:", realm.realm.stables === realm.stables.stables)

let squire = Squire()
print("the squire serves:", assembly.inject(squire).knight?.name ?? "nobody")
