using Jint.Native;

namespace JsonStringify.Internals;

/// <summary>
/// A walker of any output, as the serializer's entry (<see cref="JsonSerializer"/>'s Run and Walk) sees it: the
/// entry is the same for every output, and makes these two calls once per call. The destination is the output's own,
/// given to it before (see <see cref="Walker{TOutput}.Output"/>).
/// </summary>
internal interface IWalker
{
    void Start(
        JsonSerializer owner,
        JsValue? replacer,
        PropertyList? propertyList,
        string gap,
        long maxLength,
        int maxDepth);

    /// <summary>SerializeJSONProperty for the root; false when the value has no JSON form.</summary>
    bool SerializeRoot(JsValue value);

    /// <summary>Gives the serializer's layout cache back, if this walk holds it: the outermost call does so before it
    /// leaves the engine's gate, since only the thread inside may touch the cache.</summary>
    void ReturnShapeCache();
}
