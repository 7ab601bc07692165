extension Duration {
    /// The duration in seconds, as frame time stamps and recording lengths use them.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
