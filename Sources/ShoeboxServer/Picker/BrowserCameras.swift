import Foundation
import ShoeboxLibrary
import ShoeboxPicker

/// The cameras the user's browser reported: what the web presenter offers a picker
/// (`isSourceTypeAvailable(.camera)`, `isCameraDeviceAvailable(_:)`). Every page of the web app
/// reports them when it loads and when they change (`navigator.mediaDevices`, `devicechange`);
/// the picker's camera page adds what the camera in use can do (a torch, zoom) once it runs.
/// Before any browser reported (a fresh library, `shoebox pick --source camera` before the app was
/// ever open), a rear and a front camera are offered provisionally: the picker page asks the
/// browser when it opens and, if the browser has no camera or refuses it, says so on the page.
/// A report of no camera offers none.
struct BrowserCameras: Codable, Sendable, Hashable {
    struct Camera: Codable, Sendable, Hashable {
        /// The browser's device identifier (empty before the page was allowed the camera).
        var id: String
        var label: String
        /// `front` or `rear` when the browser says (`facingMode` user / environment, or a label
        /// that names it); `nil` when it does not (most desktop cameras).
        var position: ImagePickerController.CameraDevice?
        /// Whether its track has a torch (known once the camera runs).
        var hasTorch: Bool?
        /// Its track's zoom range (known once the camera runs).
        var zoom: ZoomRange?
    }

    struct ZoomRange: Codable, Sendable, Hashable {
        var minimum: Double
        var maximum: Double
    }

    var cameras: [Camera]
    var reportedAt: Date

    /// The picker's front and rear cameras: those the browser places (a phone's), then the others
    /// in order, rear first — the picker's default camera — then front: a desktop's one webcam is
    /// the camera a picker gets, and the switch offers a second only where there is one.
    var pickerCameras: [ImagePickerController.CameraDevice: PickerAvailability.Camera] {
        var result: [ImagePickerController.CameraDevice: PickerAvailability.Camera] = [:]
        for camera in cameras {
            if let position = camera.position, result[position] == nil {
                result[position] = PickerAvailability.Camera(hasFlash: camera.hasTorch == true)
            }
        }
        for camera in cameras where camera.position == nil {
            guard let free = [ImagePickerController.CameraDevice.rear, .front].first(where: { result[$0] == nil }) else { break }
            result[free] = PickerAvailability.Camera(hasFlash: camera.hasTorch == true)
        }
        return result
    }

    /// What the web presenter offers with `report` as the latest: its ``pickerCameras``, or
    /// before any report the rear and front cameras provisionally (without a flash), for the
    /// picker page to ask the browser about.
    static func offered(by report: BrowserCameras?) -> [ImagePickerController.CameraDevice: PickerAvailability.Camera] {
        report?.pickerCameras ?? [.rear: PickerAvailability.Camera(hasFlash: false), .front: PickerAvailability.Camera(hasFlash: false)]
    }

    /// The setting the latest report of a person's browser is kept under in the catalog
    /// (``ServerState``): the first admin's under the key a library of one person kept it under,
    /// another person's under the key and their row id (removing the person removes it:
    /// `PhotoLibrary.personSettings(of:)`).
    static func settingKey(for person: Int64) -> String {
        PhotoLibrary.personSettingKey(PhotoLibrary.browserCamerasSetting, of: person)
    }
}
