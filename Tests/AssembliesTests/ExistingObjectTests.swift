import Assemblies
import Testing

private final class Radio {
    var tuner: Tuner?
    var owner: Radio?
}

private final class Tuner {
    var radio: Radio?
    var sameRadio: Radio?
    var seenTuner: Tuner?
}

private final class Antenna {
    var tuner: Tuner?
}

private final class RadioAssembly: Assembly, @unchecked Sendable {
    var radio: Radio {
        define(withKey: "radio") { definition in
            let radio = definition *~> Radio()
            radio.tuner = self.tuner
            return radio
        }
    }

    var tuner: Tuner {
        define(scope: .prototype) { definition in
            let tuner = definition *~> Tuner()
            tuner.radio = self.existingObjectByMatchingType()
            tuner.sameRadio = self.existingObject(withKey: "radio")
            tuner.seenTuner = self.existingObjectByMatchingType()
            return tuner
        }
    }

    var antenna: Antenna {
        define { definition in
            let antenna = definition *~> Antenna()
            antenna.tuner = self.existingObjectByMatchingType()
            return antenna
        }
    }
}

@Suite struct ExistingObjectTests {
    @Test func seeInstancesOfTheCurrentGraphStillBeingWired() {
        let radio = RadioAssembly().radio
        #expect(radio.tuner?.radio === radio)
        #expect(radio.tuner?.sameRadio === radio)
        #expect(radio.tuner?.seenTuner === radio.tuner)
    }

    @Test func returnNilOutsideAResolution() {
        let assembly = RadioAssembly()
        _ = assembly.radio
        let radio: Radio? = assembly.existingObjectByMatchingType()
        let byKey: Radio? = assembly.existingObject(withKey: "radio")
        #expect(radio == nil)
        #expect(byKey == nil)
    }

    @Test func returnNilWhenTheGraphHasNoSuchInstance() {
        #expect(RadioAssembly().antenna.tuner == nil)
    }

    @Test func seeOnlyTheCurrentGraph() {
        let assembly = RadioAssembly()
        let first = assembly.radio
        let tuner = assembly.tuner
        #expect(tuner.radio == nil)
        #expect(tuner.radio !== first)
    }
}
