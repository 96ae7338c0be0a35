import Configuration
import NotesServer

// Environment variables: HOST, PORT, LOG_LEVEL, GRAPH_PATH.
let settings = ServerSettings(reading: ConfigReader(provider: EnvironmentVariablesProvider()))
let app = NotesAppAssembly(configuration: settings)
try await app.serve()
