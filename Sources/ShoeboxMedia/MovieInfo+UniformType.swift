import ShoeboxImaging

extension MovieInfo {
    /// The media type of the movie's container (``container``); ``UTType/movie`` (no extension,
    /// no MIME type of its own) for a container Shoebox has no type for.
    public var uniformType: UTType {
        switch container {
        case "mov": .quickTimeMovie
        case "webm": .webM
        case "mkv", "matroska": .matroska
        case "3gp": .threeGPP
        case "3g2": .threeGPP2
        case "avi": .avi
        case "mpegts": .mpeg2TransportStream
        case "mpeg", "mpegvideo", "vob": .mpeg
        case "dv": .dvMovie
        case "flv": .flashVideo
        case "asf": .windowsMediaVideo
        case "ogg": .oggVideo
        case "mxf": .mxf
        case "mp4": .mpeg4Movie
        default: .movie
        }
    }
}
