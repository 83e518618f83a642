using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using Jint.Runtime.Descriptors;
using Jint.Runtime.Interop;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>Engines for tests: ours installed as JSON.stringify, or Jint's built-in as the oracle.</summary>
internal static class Js
{
    /// <summary>An engine whose JSON.stringify is this library's.</summary>
    public static Engine Ours(Action<Options>? configure = null, JsonSerializerOptions? serializerOptions = null) => new Engine(o =>
    {
        configure?.Invoke(o);
        o.UseJsonStringify(serializerOptions);
    });

    /// <summary>
    /// An engine whose JSON.stringify calls <paramref name="stringify"/> with a serializer of that engine and the
    /// call's value, replacer and space (undefined where not passed). The serializer has <paramref name="options"/>, or
    /// else the string path's limit (the longest .NET string), which the other outputs do not have by default. The
    /// function is installed as the built-in is: length 3, not enumerable.
    /// </summary>
    public static Engine WithStringify(
        Func<JsonSerializer, JsValue, JsValue, JsValue, JsValue> stringify, JsonSerializerOptions? options = null)
    {
        var engine = new Engine();
        var serializer = new JsonSerializer(engine, options ?? new JsonSerializerOptions { MaxLength = JsonConstants.MaxStringLength });
        var function = new ClrFunction(
            engine,
            "stringify",
            (_, args) => stringify(serializer, Arg(args, 0), Arg(args, 1), Arg(args, 2)),
            3,
            PropertyFlag.Configurable);
        ((ObjectInstance)engine.Global.Get("JSON")).DefineOwnProperty("stringify", new PropertyDescriptor(function, PropertyFlag.NonEnumerable));
        return engine;
    }

    /// <summary>An engine with Jint's built-in JSON.stringify.</summary>
    public static Engine Builtin(Action<Options>? configure = null) => new(o => configure?.Invoke(o));

    /// <summary>
    /// Evaluates <paramref name="script"/> and returns its string result, "undefined", or "Name: message" for a JS
    /// error.
    /// </summary>
    public static string Run(Engine engine, string script)
    {
        try
        {
            JsValue result = engine.Evaluate(script);
            return result.IsUndefined() ? "undefined" : result.ToString();
        }
        catch (JavaScriptException e)
        {
            return ErrorText(e);
        }
    }

    private static JsValue Arg(JsValue[] args, int i) => i < args.Length ? args[i] : JsValue.Undefined;

    public static string ErrorText(JavaScriptException e)
    {
        string name = e.Error is Jint.Native.Object.ObjectInstance error ? error.Get("name").ToString() : "Error";
        return name + ": " + e.Message;
    }
}
