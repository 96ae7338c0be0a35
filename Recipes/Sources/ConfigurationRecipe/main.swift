import Assemblies
import Configuration

// Environment variables first (DATABASE_URL, DATABASE_POOL_SIZE, GREETING), then the defaults.
let config = ConfigReader(providers: [
    EnvironmentVariablesProvider(),
    InMemoryProvider(values: [
        "database.url": "postgres://localhost/recipes",
        "database.pool-size": 8,
    ]),
])
let server = ServerAssembly(configuration: ServerSettings(reading: config), Deployment.production)

let greeter = server.greeter
print(greeter.greet("Ada"))
print("database: \(greeter.database.url), pool of \(greeter.database.poolSize)")

// A test configures a family of its own, with values it makes up.
let testServer = ServerAssembly(
    configuration: ServerSettings(reading: ConfigReader(provider: InMemoryProvider(values: ["greeting": "Hi"]))),
    Deployment.development
)
print(testServer.greeter.greet("Grace"))
print("test database: \(testServer.greeter.database.url), pool of \(testServer.greeter.database.poolSize)")
