// The few Foundation and UIKit declarations the Google Sign-In transcriptions refer to, so that
// Swift's Clang importer can read them on Linux (-enable-objc-interop, no Apple SDK). Only their
// names matter here: the importer's renaming depends on the selectors, not on these classes.
#pragma clang assume_nonnull begin
@protocol NSObject
@end
__attribute__((objc_root_class))
@interface NSObject <NSObject>
+ (instancetype)alloc;
- (instancetype)init;
@end
typedef struct _NSZone NSZone;
@class NSCoder;
@protocol NSCopying
- (id)copyWithZone:(nullable NSZone *)zone;
@end
@protocol NSSecureCoding
- (void)encodeWithCoder:(NSCoder *)coder;
- (nullable instancetype)initWithCoder:(NSCoder *)coder;
@end
@interface NSCoder : NSObject
@end
@interface NSString : NSObject
@end
@interface NSURL : NSObject
@end
@interface NSDate : NSObject
@end
@interface NSArray<__covariant ObjectType> : NSObject
@end
@interface NSError : NSObject
@end
@interface NSURLRequest : NSObject
@end
@interface NSMutableURLRequest : NSURLRequest
@end
@interface UIViewController : NSObject
@end
@interface UIControl : NSObject
@end
typedef _Bool BOOL;
typedef unsigned long NSUInteger;
typedef long NSInteger;
#define NS_ENUM(type, name) enum name : type name; enum __attribute__((enum_extensibility(open))) name : type
#pragma clang assume_nonnull end
