using Jint;
using Jint.Native;
using Jint.Runtime;

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

    /// <summary>An engine with Jint's built-in JSON.stringify.</summary>
    public static Engine Builtin(Action<Options>? configure = null) => new(o => configure?.Invoke(o));

    /// <summary>Evaluates <paramref name="script"/> and returns its string result, "undefined", or "Name: message" for a JS error.</summary>
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

    public static string ErrorText(JavaScriptException e)
    {
        string name = e.Error is Jint.Native.Object.ObjectInstance error ? error.Get("name").ToString() : "Error";
        return name + ": " + e.Message;
    }
}
