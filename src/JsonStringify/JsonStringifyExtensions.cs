using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime.Descriptors;
using Jint.Runtime.Interop;

namespace JsonStringify;

/// <summary>Installs <see cref="JsonSerializer"/> as <c>JSON.stringify</c> for scripts.</summary>
public static class JsonStringifyExtensions
{
    private const string StringifyName = "stringify";

    // JSON.stringify(value, replacer, space) has length 3.
    private const int StringifyLength = 3;

    /// <summary>
    /// Replaces <c>JSON.stringify</c> in <paramref name="engine"/> with this library's serializer. Scripts cannot
    /// tell it from the built-in: it is named "stringify", has length 3, is not a constructor, and is a writable,
    /// configurable, non-enumerable property of <c>JSON</c>. Errors reach scripts as JavaScript errors.
    /// </summary>
    /// <param name="engine">The engine to install it in.</param>
    /// <param name="options">The serializer's settings; <see langword="null"/> for the defaults.</param>
    /// <returns>The same engine, for chaining.</returns>
    /// <exception cref="InvalidOperationException">The engine has no global <c>JSON</c> object.</exception>
    public static Engine UseJsonStringify(this Engine engine, JsonSerializerOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(engine);
        return Install(engine, new JsonSerializer(engine, options));
    }

    /// <summary>
    /// Installs this library's <c>JSON.stringify</c> in every engine created with <paramref name="options"/>.
    /// </summary>
    /// <param name="options">The engine options to configure.</param>
    /// <param name="serializerOptions">The serializer's settings; <see langword="null"/> for the defaults.</param>
    /// <returns>The same options, for chaining.</returns>
    public static Options UseJsonStringify(this Options options, JsonSerializerOptions? serializerOptions = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.Configure(engine => Install(engine, new JsonSerializer(engine, serializerOptions, options)));
    }

    private static Engine Install(Engine engine, JsonSerializer serializer)
    {
        if (engine.Global.GetOwnProperty("JSON").Value is not ObjectInstance json)
        {
            throw new InvalidOperationException("The engine has no global JSON object to install JSON.stringify on.");
        }

        var stringify = new ClrFunction(
            engine,
            StringifyName,
            (_, arguments) => serializer.Serialize(Argument(arguments, 0), Argument(arguments, 1), Argument(arguments, 2)),
            StringifyLength,
            PropertyFlag.Configurable);
        json.DefineOwnProperty(StringifyName, new PropertyDescriptor(stringify, PropertyFlag.NonEnumerable));
        return engine;
    }

    private static JsValue Argument(JsValue[] arguments, int index) =>
        index < arguments.Length ? arguments[index] : JsValue.Undefined;
}
