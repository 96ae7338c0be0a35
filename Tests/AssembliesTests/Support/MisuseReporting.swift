/// Whether a misuse in a wiring check or in `withMisuseThrown` is reported on this system, rather
/// than stopping the process: the tests that misuse the library on purpose run only where it is.
let misuseIsReported: Bool = {
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { return true }
    return false
}()
