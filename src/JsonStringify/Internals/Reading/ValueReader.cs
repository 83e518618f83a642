using Jint.Native;
using Jint.Native.Array;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// The one place that asks the engine for keys, properties and elements. Readers only read: they never write text
/// and never call toJSON or the replacer. Every read has the same observable effects (getters, proxy traps) as the
/// spec's operation. This base reads through Jint's public API; a derived reader may add shortcuts for objects
/// whose reads cannot be observed.
/// </summary>
internal abstract class ValueReader
{
    private static readonly JsString s_length = new("length");

    /// <summary>EnumerableOwnProperties(o, key): [[OwnPropertyKeys]], then [[GetOwnProperty]] for each string key.</summary>
    public List<JsValue> GetEnumerableOwnKeys(ObjectInstance o)
    {
        // Jint hands back a fresh list, so it is filtered in place. A proxy's ownKeys trap can return symbols even
        // when only strings are asked for; the spec never looks them up.
        List<JsValue> keys = o.GetOwnPropertyKeys(Types.String);
        // The reader that may use Jint's internals asks as Jint's serializer does, through the object's own probe: the
        // same answer and the same user code as GetOwnProperty, but a wrapped CLR dictionary answers it with ContainsKey
        // instead of converting the value into a descriptor that is thrown away before [[Get]] converts it again.
        bool probe = this is ShapeReader && JintInternals.OwnPropertyProbeWorks;
        int kept = 0;
        for (int i = 0; i < keys.Count; i++)
        {
            JsValue key = keys[i];
            if (key.Type != Types.String)
            {
                continue;
            }

            if (probe ? JintInternals.IsEnumerableOwnProperty(o, key) : IsEnumerableOwnProperty(o, key))
            {
                keys[kept++] = key;
            }
        }

        keys.RemoveRange(kept, keys.Count - kept);
        return keys;
    }

    // [[GetOwnProperty]](key) is an enumerable property.
    private static bool IsEnumerableOwnProperty(ObjectInstance o, JsValue key)
    {
        PropertyDescriptor descriptor = o.GetOwnProperty(key);
        return descriptor != PropertyDescriptor.Undefined && descriptor.Enumerable;
    }

    /// <summary>Get(o, key).</summary>
    public JsValue Get(ObjectInstance o, JsValue key) => o.Get(key, o);

    /// <summary>LengthOfArrayLike(array): ToLength(Get(array, "length")).</summary>
    public ulong GetLength(ObjectInstance array) =>
        array is JsArray jsArray ? jsArray.Length : TypeConverter.ToLength(array.Get(s_length, array));

    /// <summary>Get(array, ToString(index)).</summary>
    public JsValue GetElement(ObjectInstance array, ulong index)
    {
        // ArrayInstance.TryGetValue runs getters, and reads a hole from the prototypes by asking each one for an own
        // property and then for its prototype: that is [[Get]] only while every prototype is ordinary. Above an exotic
        // one (a proxy, whose getOwnPropertyDescriptor and getPrototypeOf traps it would run instead of get), the
        // element is read as OrdinaryGet does: the own property, or else the prototype's [[Get]].
        if (array is ArrayInstance arrayInstance && index <= uint.MaxValue)
        {
            if (HasOrdinaryPrototypes(arrayInstance))
            {
                return arrayInstance.TryGetValue((uint)index, out JsValue value) ? value : JsValue.Undefined;
            }

            JsString key = IndexKey.Create(index);
            if (arrayInstance.GetOwnProperty(key) != PropertyDescriptor.Undefined)
            {
                return arrayInstance.Get(key, arrayInstance);
            }

            return arrayInstance.Prototype is { } prototype ? prototype.Get(key, arrayInstance) : JsValue.Undefined;
        }

        return array.Get(IndexKey.Create(index), array);
    }

    // Whether every prototype of an array is a plain object, an array or an intrinsic prototype of either, whose own
    // lookups and [[GetPrototypeOf]] run no user code. A few type tests per read: the fast path comes here only for
    // holes and sparse arrays.
    private static bool HasOrdinaryPrototypes(ArrayInstance array)
    {
        EngineTypes types = EngineTypes.Instance;
        for (ObjectInstance? p = array.Prototype; p is not null; p = p.Prototype)
        {
            if (!types.IsOrdinaryPrototype(p) && p is not JsArray)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>
    /// The hidden class of an ordinary object whose own properties live in one (or a stand-in for a plain object that
    /// never had a property), or null. It names the layout only; <see cref="TryGetShapeKeys"/> says whether it is usable.
    /// </summary>
    public virtual object? GetShape(ObjectInstance o) => null;

    /// <summary>
    /// The keys of <paramref name="shape"/>, in [[OwnPropertyKeys]] order, when all of them are enumerable data
    /// properties that are not integer-like: reading an object of that class then runs no user code.
    /// </summary>
    public virtual bool TryGetShapeKeys(object shape, out JsValue[]? keys)
    {
        keys = null;
        return false;
    }

    /// <summary>
    /// For an ordinary object whose properties are kept in a table rather than a hidden class: its enumerable own
    /// string-keyed properties with their descriptors, in [[OwnPropertyKeys]] order, read in one pass and pushed onto
    /// <paramref name="tables"/> as <paramref name="segment"/>. False (and nothing read) when the reader cannot do that
    /// for <paramref name="o"/>.
    /// </summary>
    public virtual bool TryReadTable(ObjectInstance o, TableStack tables, out TableSegment segment)
    {
        segment = default;
        return false;
    }

    /// <summary>Whether <paramref name="array"/> has no own property named toJSON; asking runs no user code.</summary>
    public virtual bool HasNoOwnToJson(JsArray array) => array.GetOwnProperty(JsonConstants.ToJson) == PropertyDescriptor.Undefined;
}
