import Foundation
import ShoeboxImaging
import ShoeboxLibrary
import ShoeboxPicker

/// The JSON bodies the routes decode, besides types of their own modules (``ClientManifest``,
/// ``PickerRequest``, ``FetchQuery``), with the checks the routes make of them before anything
/// else: in one place, so that `scripts/fuzz json` feeds every one of them.
package enum RequestBody {
    /// `POST /api/albums`.
    package struct NewAlbum: Decodable {
        package var title: String
        package var folder: String?
        package var assets: [String]?
    }

    /// `PATCH /api/albums/ID`.
    package struct Rename: Decodable {
        package var title: String
    }

    /// `POST /api/albums/ID/add` and `/remove`.
    package struct Members: Decodable {
        package var assets: [String]
    }

    /// `PATCH /api/assets/ID`: flags, and what ``MetadataChange`` sets.
    package struct Edit: Decodable {
        package var isFavorite: Bool?
        package var isHidden: Bool?
        /// `true` makes the asset its burst's key photo.
        package var representsBurst: Bool?
        /// Its date, place, title, caption, keywords, rating or label.
        package var metadata: MetadataChange

        private enum CodingKeys: String, CodingKey { case isFavorite, isHidden, representsBurst }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isFavorite = try container.decodeIfPresent(Bool.self, forKey: .isFavorite)
            isHidden = try container.decodeIfPresent(Bool.self, forKey: .isHidden)
            representsBurst = try container.decodeIfPresent(Bool.self, forKey: .representsBurst)
            metadata = try MetadataChange(from: decoder)
        }
    }

    /// What a person corrects of an asset's metadata (`PATCH /api/assets/ID` and `POST
    /// /api/assets/metadata`): `date` (`{"set": "2019-06-12T14:30", "timeZone"?}`, `{"shift":
    /// seconds}` or `{"timeZone": "Asia/Tokyo"}`), `location` (`{"latitude", "longitude",
    /// "altitude"?}`, or `null` to remove it), `title`, `caption`, `label` (`""` removes),
    /// `rating` (0–5), `keywords` (replace), `addKeywords`, `removeKeywords`, and `revert`
    /// (`["creationDate", "location"]`: the file's values back). With the selection of `POST
    /// /api/assets/metadata`: `assets` or `fetch` (and `except`), `wholeBursts`, `preview`.
    package struct MetadataChange: Decodable {
        package struct DateChange: Decodable {
            package var set: String?
            package var shift: Double?
            package var timeZone: String?
        }

        package struct Place: Decodable {
            package var latitude: Double
            package var longitude: Double
            package var altitude: Double?
        }

        package var date: DateChange?
        /// `.some(nil)`: `"location": null`, which removes it.
        package var location: Place??
        package var title: String?
        package var caption: String?
        package var label: String?
        package var rating: Int?
        package var keywords: [String]?
        package var addKeywords: [String]?
        package var removeKeywords: [String]?
        package var revert: [String]?
        package var assets: [String]?
        package var fetch: String?
        package var except: [String]?
        package var wholeBursts: Bool?
        package var preview: Bool?

        private enum CodingKeys: String, CodingKey {
            case date, location, title, caption, label, rating, keywords, addKeywords, removeKeywords, revert, assets, fetch, except, wholeBursts, preview
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            date = try container.decodeIfPresent(DateChange.self, forKey: .date)
            if container.contains(.location) {
                location = try container.decodeNil(forKey: .location) ? .some(nil) : .some(try container.decode(Place.self, forKey: .location))
            }
            title = try container.decodeIfPresent(String.self, forKey: .title)
            caption = try container.decodeIfPresent(String.self, forKey: .caption)
            label = try container.decodeIfPresent(String.self, forKey: .label)
            rating = try container.decodeIfPresent(Int.self, forKey: .rating)
            keywords = try container.decodeIfPresent([String].self, forKey: .keywords)
            addKeywords = try container.decodeIfPresent([String].self, forKey: .addKeywords)
            removeKeywords = try container.decodeIfPresent([String].self, forKey: .removeKeywords)
            revert = try container.decodeIfPresent([String].self, forKey: .revert)
            assets = try container.decodeIfPresent([String].self, forKey: .assets)
            fetch = try container.decodeIfPresent(String.self, forKey: .fetch)
            except = try container.decodeIfPresent([String].self, forKey: .except)
            wholeBursts = try container.decodeIfPresent(Bool.self, forKey: .wholeBursts)
            preview = try container.decodeIfPresent(Bool.self, forKey: .preview)
        }

        /// Whether it sets any field (the selection and `preview` aside).
        package var changesSomething: Bool {
            date != nil || location != nil || title != nil || caption != nil || label != nil || rating != nil || keywords != nil
                || addKeywords != nil || removeKeywords != nil || revert != nil
        }

        /// The library's adjustment, every value checked: `400` names what is wrong.
        package func adjustment() throws(APIError) -> MetadataAdjustment {
            var adjustment = MetadataAdjustment(title: title, caption: caption, rating: rating, label: label)
            if let date { adjustment.date = try Self.dateChange(date) }
            if let location {
                adjustment.location = .some(location.map { Asset.Location(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude) })
            }
            let keywordChanges = [
                keywords.map(MetadataAdjustment.KeywordChange.replace), addKeywords.map(MetadataAdjustment.KeywordChange.add),
                removeKeywords.map(MetadataAdjustment.KeywordChange.remove),
            ].compactMap { $0 }
            guard keywordChanges.count <= 1 else { throw .badRequest("give one of keywords, addKeywords and removeKeywords") }
            adjustment.keywords = keywordChanges.first
            for field in revert ?? [] {
                switch field {
                case "creationDate", "date": adjustment.revertsToFileValues.insert(.creationDate)
                case "location": adjustment.revertsToFileValues.insert(.location)
                default: throw .badRequest("revert takes creationDate and location, not \(field)")
                }
            }
            return adjustment
        }

        private static func dateChange(_ date: DateChange) throws(APIError) -> MetadataAdjustment.DateChange {
            let zone = try date.timeZone.map(timeZone)
            switch (date.set, date.shift) {
            case (let text?, nil):
                return .set(try wallClock(text), timeZone: zone)
            case (nil, let seconds?):
                guard zone == nil else { throw .badRequest("a shift keeps each photo's zone: give shift or timeZone, not both") }
                guard seconds.isFinite else { throw .badRequest("shift is a number of seconds") }
                return .shift(seconds: seconds)
            case (nil, nil):
                guard let zone else { throw .badRequest("date needs set, shift or timeZone") }
                return .timeZone(zone)
            case (_?, _?):
                throw .badRequest("date takes set or shift, not both")
            }
        }

        package static func wallClock(_ text: String) throws(APIError) -> ImageMetadata.DateTime {
            guard let time = MetadataAdjustment.wallClock(text) else {
                throw .badRequest("date.set must be a date and time, 2019-06-12T14:30 (seconds and an offset such as +02:00 optional), not \(text)")
            }
            return time
        }

        package static func timeZone(_ text: String) throws(APIError) -> TimeZone {
            guard let zone = MetadataAdjustment.timeZone(text) else {
                throw .badRequest("timeZone must be a zone name (Europe/Rome), UTC or an offset (+09:00), not \(text)")
            }
            return zone
        }
    }

    /// `POST /api/assets/batch`: the assets named (`assets`), or every asset of a fetch but those
    /// in `except`. With `wholeBursts`, a burst's key photo stands for every frame of its burst
    /// (as the web app's grid shows a burst as one item).
    package struct Batch: Decodable {
        package var action: String
        package var assets: [String]?
        package var fetch: String?
        package var except: [String]?
        package var album: String?
        package var wholeBursts: Bool?
    }

    /// `POST /api/uploads`: a resumable upload announced.
    package struct UploadStart: Decodable {
        package var filename: String
        package var size: Int
        package var album: String?
    }

    /// `POST /api/assets/known`: the SHA-256s of files a backup may send.
    package struct KnownFiles: Decodable {
        package var sha256: [String]
    }

    /// `POST /api/clients`: a client's manifest and, from a caller without credentials, the
    /// sign-in name of the person the client is for (the first admin when absent).
    package struct ClientRegistration: Decodable {
        package let manifest: ClientManifest
        package let person: String?

        private enum CodingKeys: String, CodingKey { case person }

        package init(from decoder: any Decoder) throws {
            manifest = try ClientManifest(from: decoder)
            person = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .person)
        }
    }

    /// `PUT /api/clients/ID/services/SERVICE`.
    package struct StatusChange: Decodable {
        package var status: String?

        /// The status to set; `nil` (undecided) for `notDetermined` or none. `restricted` comes
        /// only from the administrator's policy.
        package func decided() throws(APIError) -> Authorization.Status? {
            guard let status, status != "notDetermined" else { return nil }
            guard let parsed = Authorization.Status(rawValue: status), parsed != .restricted else {
                throw APIError.badRequest("status must be authorized, denied, limited or notDetermined (restricted comes from the admin policy)")
            }
            return parsed
        }
    }

    /// `PUT /api/clients/ID/limited`.
    package struct LimitedSelection: Decodable {
        package var assets: [String]
    }

    /// `POST /api/prompts/ID`: the user's answer to an authorization question.
    package struct Answer: Decodable {
        package var answer: String
        package var assets: [String]?

        package func authorizationAnswer() throws(APIError) -> AuthorizationAnswer {
            switch answer {
            case "allow": .allow
            case "deny": .deny
            case "selectPhotos": .selectPhotos(assets ?? [])
            default: throw APIError.badRequest("answer must be allow, deny or selectPhotos")
            }
        }
    }

    /// `POST /api/jobs/retry` and `/cancel`: these jobs, or every one when `ids` is absent.
    package struct JobSelection: Decodable {
        package var ids: [Int64]?
    }

    /// The picker page's `album`, `preview`, `select` and `deselect`.
    package struct Pick: Decodable {
        package var id: String
    }

    /// The picker page's `crop`.
    package struct Crop: Decodable {
        package var id: String
        package var rect: PixelRect?
    }

    /// The picker page's `trim`.
    package struct Trim: Decodable {
        package var id: String
        package var start: Double?
        package var end: Double?

        /// The seconds kept, when both ends are given.
        package func range() throws(APIError) -> Range<Double>? {
            guard let start, let end else { return nil }
            guard start < end else { throw APIError.badRequest("the trim's start \(start) must come before its end \(end)") }
            return start..<end
        }
    }

    /// The picker page's `camera/settings`.
    package struct CameraSettings: Decodable {
        package var device: ImagePickerController.CameraDevice?
        package var mode: ImagePickerController.CameraCaptureMode?
        package var flash: ImagePickerController.CameraFlashMode?
        /// A capture device's zoom factor (the browser zooms its own camera's track).
        package var zoom: Double?
        /// A capture device's exposure bias, in EV.
        package var exposureBias: Float?
    }

    /// `POST /api/picker/cameras`: the browser's video inputs.
    package struct BrowserCamerasReport: Decodable {
        package struct Camera: Decodable {
            package var id: String?
            package var label: String?
            /// `user`, `environment` (the track's or device's `facingMode`), or nothing.
            package var facingMode: String?
            package var torch: Bool?
            package var zoom: Zoom?
        }

        package struct Zoom: Decodable {
            package var min: Double
            package var max: Double
        }

        package var cameras: [Camera]

        /// The report, checked: at most 16 cameras, names and identifiers of at most 256
        /// characters, a zoom range of finite factors.
        func report() throws(APIError) -> BrowserCameras {
            guard cameras.count <= 16 else { throw APIError.badRequest("a browser reports at most 16 cameras, not \(cameras.count)") }
            var kept: [BrowserCameras.Camera] = []
            for camera in cameras {
                let id = camera.id ?? ""
                let label = camera.label ?? ""
                guard id.count <= 256, label.count <= 256 else { throw APIError.badRequest("a camera's id and label have at most 256 characters") }
                if let zoom = camera.zoom, !(zoom.min.isFinite && zoom.max.isFinite && zoom.min > 0 && zoom.max >= zoom.min) {
                    throw APIError.badRequest("zoom \(zoom.min)…\(zoom.max) is not a range of factors")
                }
                let named = label.lowercased()
                let position: ImagePickerController.CameraDevice? =
                    switch camera.facingMode {
                    case "user": .front
                    case "environment": .rear
                    default:
                        named.contains("back") || named.contains("rear") || named.contains("environment")
                            ? .rear
                            : named.contains("front") || named.contains("user") || named.contains("facetime") ? .front : nil
                    }
                kept.append(
                    BrowserCameras.Camera(
                        id: id, label: label, position: position, hasTorch: camera.torch,
                        zoom: camera.zoom.map { BrowserCameras.ZoomRange(minimum: $0.min, maximum: $0.max) }))
            }
            return BrowserCameras(cameras: kept, reportedAt: Date())
        }
    }
}
