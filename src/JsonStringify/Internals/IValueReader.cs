using Jint.Native;
using Jint.Native.Object;

namespace JsonStringify.Internals;

/// <summary>
/// The one place that asks the engine for keys, properties and elements. Readers only read: they never write text
/// and never call toJSON or the replacer. Every read is an ECMA-262 operation with the same observable effects
/// (getters, proxy traps) as the spec's.
/// </summary>
internal interface IValueReader
{
    /// <summary>EnumerableOwnProperties(o, key): [[OwnPropertyKeys]], then [[GetOwnProperty]] for each string key.</summary>
    List<JsValue> GetEnumerableOwnKeys(ObjectInstance o);

    /// <summary>Get(o, key).</summary>
    JsValue Get(ObjectInstance o, JsValue key);

    /// <summary>LengthOfArrayLike(array): ToLength(Get(array, "length")).</summary>
    ulong GetLength(ObjectInstance array);

    /// <summary>Get(array, ToString(index)).</summary>
    JsValue GetElement(ObjectInstance array, ulong index);
}
