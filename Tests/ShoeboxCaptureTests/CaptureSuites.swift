import Testing

/// Every capture suite, one test at a time: cameras are process-wide and a camera streams to one
/// running session at a time.
@Suite(.serialized) enum CaptureSuites {}
