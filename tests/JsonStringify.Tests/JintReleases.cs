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

        // An arguments object made late (read first by an arrow function or eval) does not keep what its call was
        // handed (see JintBugs.LazyArgumentsAreShared), so the argument probe fails and each call gets a list of its
        // own.
        "4.17.0" or "4.16.0" or "4.16.1" or "4.16.2" or "4.16.3" or "4.16.4" => JintAssumption.CalleeCopiesArguments,
        _ => throw new InvalidOperationException($"Jint {release} is not a release the package claims: add it to JintReleases once the suite passes on it."),
    };
}
