using System.Runtime.CompilerServices;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// The whole suite runs once per reader: with JSONSTRINGIFY_TEST_READER=public every serializer uses Jint's public
/// API only; otherwise the fast path is used wherever its self-test passes. .ci/run runs both.
/// </summary>
internal static class ReaderSelection
{
    public static bool PublicOnly { get; } =
        string.Equals(Environment.GetEnvironmentVariable("JSONSTRINGIFY_TEST_READER"), "public", StringComparison.OrdinalIgnoreCase);

    [ModuleInitializer]
    internal static void Apply() => FastPath.ForcePublicReader = PublicOnly;
}
