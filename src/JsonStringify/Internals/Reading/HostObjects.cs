using System.Collections;
using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using Jint.Native.Object;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// Jint's host extensions to JSON.stringify: which wrapped CLR objects serialize as arrays. Jint treats a wrapped
/// object as array-like when the type it exposes (<see cref="ObjectWrapper.ClrType"/>: the declared type of the member,
/// indexer or argument it came through, not the runtime type of its target) is a collection (non-generic ICollection,
/// ICollection&lt;T&gt; or IReadOnlyCollection&lt;T&gt;) and not a dictionary (IDictionary, IDictionary&lt;K,V&gt; or
/// IReadOnlyDictionary&lt;K,V&gt;); its keys and length follow that type too, and Jint's wrapper reads them so.
/// <see cref="ArrayLikeObject"/>s always are array-like, and so is a proxy whose target is (through any number of
/// proxies), as Jint looks through proxies for this decision as IsArray does.
/// </summary>
internal static class HostObjects
{
    private static readonly ConcurrentDictionary<Type, bool> s_arrayLikeTypes = new();

    /// <summary>Whether <paramref name="o"/>, not a proxy, serializes as an array by Jint's host convention.</summary>
    public static bool IsArrayLike(ObjectInstance o) => o switch
    {
        ArrayLikeObject => true,
        ObjectWrapper wrapper => IsArrayLikeType(wrapper.ClrType),
        _ => false,
    };

    // Each CLR type is inspected once; afterwards this is a dictionary lookup.
    private static bool IsArrayLikeType(Type type) => s_arrayLikeTypes.GetOrAdd(type, static t => Inspect(t));

    // The interfaces are those Jint's interop sees when it wraps the object, from the same metadata: where trimming has
    // removed one that the program never uses, neither finds it, and both treat the object alike.
    [UnconditionalSuppressMessage(
        "Trimming",
        "IL2070:UnrecognizedReflectionPattern",
        Justification = "Agrees with Jint's interop, which reads the same interfaces of the wrapped type.")]
    private static bool Inspect(Type type)
    {
        bool collection = typeof(ICollection).IsAssignableFrom(type);
        bool dictionary = typeof(IDictionary).IsAssignableFrom(type);
        foreach (Type candidate in type.GetInterfaces().Append(type))
        {
            if (!candidate.IsGenericType)
            {
                continue;
            }

            Type definition = candidate.GetGenericTypeDefinition();
            collection |= definition == typeof(ICollection<>) || definition == typeof(IReadOnlyCollection<>);
            dictionary |= definition == typeof(IDictionary<,>) || definition == typeof(IReadOnlyDictionary<,>);
        }

        return collection && !dictionary;
    }
}
