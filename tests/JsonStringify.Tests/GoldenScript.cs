using System.Globalization;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;

namespace JsonStringify.Tests;

/// <summary>
/// A script of testdata/v8-golden.json run in a Jint engine, and its outcome held against V8's: shared by
/// V8GoldenTests, V8FuzzTests and the published replay (tests/NativeAot).
/// </summary>
internal static class GoldenScript
{
    /// <summary>
    /// Runs <paramref name="script"/>; whether its outcome is V8's, and ours described. V8's is
    /// <paramref name="result"/>: its string (a script's value must be a string to match it), null where its value was
    /// undefined, or, with <paramref name="throws"/>, the name of the error it threw (ours must have that name).
    /// </summary>
    public static (bool Matches, string Ours) Run(Engine engine, string script, string? result, bool throws)
    {
        JsValue value;
        try
        {
            value = engine.Evaluate(script);
        }
        catch (JavaScriptException e)
        {
            string name = e.Error is ObjectInstance error ? error.Get("name").ToString() : "Error";
            return (throws && name == result, $"throws {name}: {e.Message}");
        }
#pragma warning disable CA1031 // Any other exception is a mismatch to report, not a reason to stop.
        catch (Exception e)
#pragma warning restore CA1031
        {
            return (false, $"host exception {e.GetType().FullName}: {e.Message}");
        }

        if (value.IsUndefined())
        {
            return (!throws && result is null, "undefined");
        }

        if (!value.IsString())
        {
            return (false, $"a {value.Type} completion value: {value}");
        }

        string text = value.AsString();
        return (!throws && string.Equals(result, text, StringComparison.Ordinal), Show(text));
    }

    /// <summary>V8's outcome as <see cref="Run"/> describes ours.</summary>
    public static string ShowV8(string? result, bool throws) => throws ? "throws " + result : Show(result);

    // A string as a quoted literal in printable ASCII (so controls and lone surrogates are visible), or "undefined".
    private static string Show(string? text)
    {
        if (text is null)
        {
            return "undefined";
        }

        var builder = new StringBuilder(text.Length + 2).Append('"');
        foreach (char c in text)
        {
            if (c is '"' or '\\')
            {
                builder.Append('\\').Append(c);
            }
            else if (c is >= ' ' and <= '~')
            {
                builder.Append(c);
            }
            else
            {
                builder.Append(CultureInfo.InvariantCulture, $"\\u{(int)c:x4}");
            }
        }

        return builder.Append('"').ToString();
    }
}
