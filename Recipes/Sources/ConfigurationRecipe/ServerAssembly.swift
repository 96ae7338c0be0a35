import Assemblies

final class Database: Sendable {
    let url: String
    let poolSize: Int

    init(url: String, poolSize: Int) {
        self.url = url
        self.poolSize = poolSize
    }
}

final class Greeter: Sendable {
    let greeting: String
    let database: Database

    init(greeting: String, database: Database) {
        self.greeting = greeting
        self.database = database
    }

    func greet(_ name: String) -> String { "\(greeting), \(name)!" }
}

final class ServerAssembly: Assembly, @unchecked Sendable {
    var storage: StorageAssembly { collaborator() }

    var greeter: Greeter {
        define(scope: .singleton) {
            Greeter(greeting: self.configuration(ServerSettings.self).greeting, database: self.storage.database)
        }
    }
}

final class StorageAssembly: Assembly, @unchecked Sendable {
    var database: Database {
        define(scope: .singleton) {
            let settings = self.configuration(ServerSettings.self)
            let deployment = self.configuration(Deployment.self)
            let poolSize = deployment == .production ? settings.poolSize : 1
            return Database(url: settings.databaseURL, poolSize: poolSize)
        }
    }
}
