import Foundation

/// Which assets' local times to read again when the place table changes
/// (``SearchCatalog/forgetPlaceNames(zonesToReread:)``).
public enum PlaceZoneReread: Sendable, Hashable {
    /// None (the table went: the zones found stay).
    case none
    /// Those with GPS and no UTC offset (named while there was no table).
    case missing
    /// Those too whose zone came from the place (another table may place them elsewhere).
    case all
}
