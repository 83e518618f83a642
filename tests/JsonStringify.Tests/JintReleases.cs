using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// The Jint releases the package claims, and which of the fast path's assumptions each one is known to break: the
/// suite runs on each of them (.ci/run), and the probes must find exactly these. A release not listed fails the suite
/// until it has been looked at.
/// </summary>
internal static class JintReleases
{
    /// <summary>The release this test run uses.</summary>
    public static string Current => FastPath.JintVersion;

    /// <summary>The assumptions whose probes must fail on the current release.</summary>
    public static JintAssumption Broken => BrokenOn(Current);

    public static JintAssumption BrokenOn(string release) => release switch
    {
        "4.18.0" => JintAssumption.None,

        // A called function's arguments object is the list it was handed: refilling it changes what the callee kept.
        "4.17.0" => JintAssumption.CalleeCopiesArguments,

        // As 4.17.0, and the property table's dictionary keeps a free list of slots instead of a ring.
        "4.16.0" or "4.16.1" or "4.16.2" or "4.16.3" or "4.16.4" => JintAssumption.CalleeCopiesArguments | JintAssumption.PropertyTables,
        _ => throw new InvalidOperationException($"Jint {release} is not a release the package claims: add it to JintReleases once the suite passes on it."),
    };
}
