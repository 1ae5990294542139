// What the kernel's view.lua is asked to place: a tween's value on the board
// (`Kernel.viewPlaces`), decoded back into scene places by the Kernel layer.

/// Where the view puts a tween's value (`view.places[property](game, value, target)`).
public struct PlaceRequest: Hashable, Sendable {
    /// The tween's target, e.g. `token:p1`.
    public var target: String
    /// The tween's property, one the view maps (`Scene.placeProperties`).
    public var property: String
    /// The value: the tween's `from` or `to`.
    public var value: StateValue?

    /// A request.
    public init(target: String, property: String, value: StateValue?) {
        self.target = target
        self.property = property
        self.value = value
    }
}
