using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>Reads values through Jint's public API only; it works on every Jint version this library builds against.</summary>
internal sealed class PublicReader : IValueReader
{
    public static readonly PublicReader Instance = new();

    private static readonly JsString s_length = new("length");

    private PublicReader()
    {
    }

    public List<JsValue> GetEnumerableOwnKeys(ObjectInstance o)
    {
        // Jint hands back a fresh list, so it is filtered in place.
        List<JsValue> keys = o.GetOwnPropertyKeys(Types.String);
        int kept = 0;
        for (int i = 0; i < keys.Count; i++)
        {
            JsValue key = keys[i];
            PropertyDescriptor descriptor = o.GetOwnProperty(key);
            if (descriptor != PropertyDescriptor.Undefined && descriptor.Enumerable)
            {
                keys[kept++] = key;
            }
        }

        keys.RemoveRange(kept, keys.Count - kept);
        return keys;
    }

    public JsValue Get(ObjectInstance o, JsValue key) => o.Get(key, o);

    public ulong GetLength(ObjectInstance array) =>
        array is JsArray jsArray ? jsArray.Length : TypeConverter.ToLength(array.Get(s_length, array));

    public JsValue GetElement(ObjectInstance array, ulong index)
    {
        // JsArray.TryGetValue is [[Get]] by index: it runs getters and falls back to the prototype chain for holes.
        if (array is JsArray jsArray && index <= uint.MaxValue)
        {
            return jsArray.TryGetValue((uint)index, out JsValue value) ? value : JsValue.Undefined;
        }

        return array.Get(IndexKey.Create(index), array);
    }
}
