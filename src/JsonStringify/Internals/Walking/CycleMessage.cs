using System.Diagnostics;
using System.Globalization;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Native.Function;
using Jint.Native.Object;
using Jint.Native.Symbol;
using Jint.Runtime.Descriptors;

namespace JsonStringify.Internals;

/// <summary>
/// The message of the TypeError for a cycle, worded as V8 14.6 words it: the object met again, the keys and objects
/// around the circle (the first two and the last one, with "..." for the rest), and the key that closes it. Built only
/// when the walk throws, so it costs nothing until a cycle is found. Nothing here runs user code.
/// </summary>
internal static class CycleMessage
{
    private const string Prefix = "Converting circular structure to JSON";
    private const string StartLine = "\n    --> starting at object with constructor ";
    private const string Line = "\n    |     ";
    private const string EndLine = "\n    --- ";

    // V8 prints this many objects after the first one, then "..." and the last one.
    private const int LeadingObjects = 2;

    private static readonly JsString s_constructor = new("constructor");
    private static readonly JsString s_name = new("name");

    /// <summary>
    /// The message for a circle of <paramref name="objects"/>: objects[0] is the object met again, objects[i] was
    /// reached from objects[i - 1] under keys[i], and the last object reaches objects[0] under
    /// <paramref name="closingKey"/>. A key is a string, or a boxed ulong for an array index.
    /// </summary>
    public static string Build(ReadOnlySpan<ObjectInstance> objects, ReadOnlySpan<object> keys, object closingKey)
    {
        Debug.Assert(objects.Length > 0 && objects.Length == keys.Length);
        var text = new StringBuilder(Prefix);
        text.Append(StartLine);
        AppendConstructorName(text, objects[0]);

        int next = 1;
        for (int end = Math.Min(objects.Length, next + LeadingObjects); next < end; next++)
        {
            AppendObjectLine(text, keys[next], objects[next]);
        }

        if (objects.Length > next + 1)
        {
            text.Append(Line).Append("...");
        }

        for (next = Math.Max(next, objects.Length - 1); next < objects.Length; next++)
        {
            AppendObjectLine(text, keys[next], objects[next]);
        }

        text.Append(EndLine);
        AppendKey(text, closingKey);
        return text.Append(" closes the circle").ToString();
    }

    private static void AppendObjectLine(StringBuilder text, object key, ObjectInstance o)
    {
        text.Append(Line);
        AppendKey(text, key);
        text.Append(" -> object with constructor ");
        AppendConstructorName(text, o);
    }

    private static void AppendKey(StringBuilder text, object key)
    {
        if (key is ulong index)
        {
            text.Append("index ").Append(index.ToString(CultureInfo.InvariantCulture));
        }
        else if (key is string { Length: > 0 } name)
        {
            text.Append("property '").Append(name).Append('\'');
        }
        else
        {
            text.Append("<anonymous>");
        }
    }

    private static void AppendConstructorName(StringBuilder text, ObjectInstance o) =>
        text.Append('\'').Append(ConstructorName(o)).Append('\'');

    /// <summary>
    /// V8's rule, as far as it can be followed without running user code: an arguments object is "Arguments" (V8 takes
    /// the constructor its hidden class records, whatever its prototype or tag); otherwise, along the prototype chain,
    /// starting at the object, the first own <c>Symbol.toStringTag</c> that is a string, or (from the first prototype
    /// on) the name of an own <c>constructor</c> that is a function, unless that name is empty or "Object"; failing
    /// both, "Array" for an array and "Object" for anything else. Only data properties are read, never a getter, and
    /// only on objects of Jint's own classes other than proxies, whose own-property lookups run no code. A property in
    /// a hidden-class slot is not read either: Jint's public API cannot tell it from a lazy slot, whose factory is host
    /// code. The chain walk stops at the first object or property it may not read.
    /// </summary>
    private static string ConstructorName(ObjectInstance o)
    {
        if (o is JsArguments)
        {
            return "Arguments";
        }

        for (ObjectInstance? p = o; p is not null && ReadsRunNoCode(p); p = p.Prototype)
        {
            if (!TryGetOwnData(p, GlobalSymbolRegistry.ToStringTag, out JsValue? tag))
            {
                break;
            }

            if (tag is JsString)
            {
                return tag.ToString();
            }

            if (ReferenceEquals(p, o))
            {
                continue;
            }

            if (!TryGetOwnData(p, s_constructor, out JsValue? constructor))
            {
                break;
            }

            if (constructor is Function function && ReadsRunNoCode(function)
                && TryGetOwnData(function, s_name, out JsValue? name) && name is JsString
                && name.ToString() is { Length: > 0 } text && text != "Object")
            {
                return text;
            }
        }

        return o is JsArray ? "Array" : "Object";
    }

    // Jint's built-in classes (JsObject, JsArray, functions, errors, the intrinsic prototypes) look their own
    // properties up without running code. Proxies run traps; classes outside Jint.Native (CLR wrappers, module
    // namespaces) and classes of other assemblies (host objects) may run host code.
    private static bool ReadsRunNoCode(ObjectInstance o)
    {
        Type type = o.GetType();
        return type.Assembly == typeof(Engine).Assembly
            && type.Namespace?.StartsWith("Jint.Native", StringComparison.Ordinal) == true
            && type != EngineTypes.Instance.Proxy;
    }

    // An own data property read without running code: value is null when there is none, or when it is an accessor.
    // False when the property is held where reading it might run code (a slot that may be lazy).
    private static bool TryGetOwnData(ObjectInstance o, JsValue key, out JsValue? value)
    {
        PropertyDescriptor descriptor = o.GetOwnProperty(key);
        value = null;
        if (descriptor == PropertyDescriptor.Undefined || descriptor.IsAccessorDescriptor())
        {
            return true;
        }

        if (descriptor.GetType() != typeof(PropertyDescriptor))
        {
            return false;
        }

        value = descriptor.Value;
        return true;
    }
}
