/// Where the device is, as the locator found it at launch.
struct DeviceLocation: Sendable, Equatable {
    /// The city the device is in.
    let city: String
}

/// Finds where the device is. A real app asks the system's location service and awaits its answer,
/// which takes a moment; this one awaits a moment too, then answers with a fixed city, as a
/// simulator does.
final class SampleLocator: Sendable {
    /// The city it always answers with.
    let city: String

    /// Creates a locator that finds the device in `city`.
    init(city: String) {
        self.city = city
    }

    /// Where the device is, after a moment's wait.
    func locate() async -> DeviceLocation {
        try? await Task.sleep(nanoseconds: 2_000_000)
        return DeviceLocation(city: city)
    }
}
