using System.Runtime.CompilerServices;
using Jint;

namespace JsonStringify.Internals;

/// <summary>
/// Every use of Jint's internal members, in one place. Each accessor is self-tested once per process against a probe
/// before first use; if a member is missing or disagrees (another Jint version), callers get the public fallback.
/// </summary>
internal static class JintInternals
{
    private static readonly Lazy<bool> s_optionsAccessorWorks = new(ProbeOptionsAccessor);

    /// <summary>The options <paramref name="engine"/> was created with, or null where Jint does not expose them.</summary>
    public static Options? TryGetOptions(Engine engine) => s_optionsAccessorWorks.Value ? GetOptions(engine) : null;

    /// <summary>Whether the accessor to Engine.Options passed its self-test in this process.</summary>
    internal static bool OptionsAccessorWorks => s_optionsAccessorWorks.Value;

    // Jint 4.18.0: internal Options Engine.Options { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_Options")]
    private static extern Options GetOptions(Engine engine);

    private static bool ProbeOptionsAccessor()
    {
        try
        {
            var options = new Options();
            using var engine = new Engine(options);
            return ReferenceEquals(GetOptions(engine), options);
        }
        catch (MissingMemberException)
        {
            return false;
        }
    }
}
