// ShoeboxError, ShoeboxErrorCode and the blocking pool live in ShoeboxSupport, below every other
// module; whoever imports ShoeboxImaging (every module above it, and every client) sees them.
@_exported import ShoeboxSupport
