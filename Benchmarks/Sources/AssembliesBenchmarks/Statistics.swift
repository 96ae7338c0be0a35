// Medians and spreads of per-round samples and ratios.

/// The median and the extremes of a set of samples.
struct Summary {
    let median: Double
    let minimum: Double
    let maximum: Double

    init(_ values: [Double]) {
        precondition(!values.isEmpty, "no samples to summarize")
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
    }
}

/// The per-round ratios `numerator[round] / denominator[round]` of two subjects measured in the same rounds.
func roundRatios(_ numerator: [Double], _ denominator: [Double]) -> Summary {
    precondition(numerator.count == denominator.count, "ratios need samples from the same rounds")
    return Summary(zip(numerator, denominator).map { $0 / $1 })
}
