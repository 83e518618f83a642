using Jint;

namespace JsonStringify.Tests;

/// <summary>
/// Bugs of Jint releases the suite runs on that decide what a test can expect, each found by asking the engine (never
/// by its version number), so that a release that fixes one is held to the spec at once.
/// </summary>
internal static class JintBugs
{
    /// <summary>
    /// Jint 4.16 and 4.17: an arguments object made late (first read by an arrow function or eval) reads storage that
    /// the engine reuses for later calls, so it shows the last call's arguments, for a script's own calls too.
    /// </summary>
    public static bool LazyArgumentsAreShared { get; } = Ask(
        "var kept = []; function f(k) { kept.push(() => arguments[0]); } f('a'); f('b'); kept[0]()") != "a";

    /// <summary>Jint 4.16.0's serializer writes subnormals of a few significant bits (5e-324, 4e-323) as 0.</summary>
    public static bool TinySubnormalsWrittenAsZero { get; } = Ask("JSON.stringify(5e-324)") != "5e-324";

    private static string Ask(string script)
    {
        using var engine = new Engine();
        return engine.Evaluate(script).ToString();
    }
}
