import Assemblies

let weather = WeatherAssembly()
let overrides = Overrides(of: weather)
overrides.replace(\.[city: "Omsk"]) { Forecast(city: "Omsk", summary: "snow (a double)") }
overrides.replace(ClockAssembly.self, with: FrozenClockAssembly.self)

overrides.apply {
    print(weather.forecast(for: "Omsk").summary)  // the double: these arguments are replaced
    print(weather.forecast(for: "Lima").summary)  // other arguments: the definition, on the frozen clock
}
print(weather.forecast(for: "Omsk").summary)  // outside `apply`: the definition again
